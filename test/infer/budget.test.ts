import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { createBudget, type LedgerEntry } from '../../src/infer/budget.js';

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
});

describe('createBudget', () => {
  it('refuses a zero, negative or fractional limit, naming it', () => {
    expect(() => createBudget({ calls: 0, tokens: 10, depth: 1 })).toThrow(ConfigError);
    expect(() => createBudget({ calls: 1, tokens: -5, depth: 1 })).toThrow(/tokens must be/);
    expect(() => createBudget({ calls: 1, tokens: 10, depth: 1.5 })).toThrow(/depth must be/);
  });
});

describe('reservations', () => {
  it('reserve a quarter of the free pool, capped at 16,000 and at what is left', () => {
    const big = createBudget({ calls: 10, tokens: 1_000_000, depth: 1 });
    const first = big.reserve();
    expect(first.ok && first.reservation.tranche).toBe(16_000);

    const small = createBudget({ calls: 10, tokens: 1_000, depth: 1 });
    const a = small.reserve();
    const b = small.reserve();
    expect(a.ok && a.reservation.tranche).toBe(250);
    // 750 free now: a quarter of it.
    expect(b.ok && b.reservation.tranche).toBe(187);
    expect(small.remaining().tokens).toBe(1_000 - 250 - 187);

    const tiny = createBudget({ calls: 10, tokens: 3, depth: 1 });
    const t = tiny.reserve();
    // A quarter of 3 rounds to 0, but a request gets at least 1 while tokens are left.
    expect(t.ok && t.reservation.tranche).toBe(1);
  });

  it('settle refunds the unused tranche, keeps the call spent and does not charge cached input', () => {
    const budget = createBudget({ calls: 5, tokens: 10_000, depth: 1 });
    const reserved = budget.reserve();
    if (!reserved.ok) throw new Error('expected a reservation');
    expect(reserved.reservation.tranche).toBe(2_500);
    const settlement = budget.settle(reserved.reservation, usage(1_000, 100, 800));
    // 200 new input + 100 output; the 800 cached tokens are free.
    expect(settlement).toEqual({ charged: 300, overdrawn: 0, refunded: 2_200 });
    expect(budget.remaining()).toEqual({ calls: 4, tokens: 9_700, depth: 1 });
    // Settling twice changes nothing.
    expect(budget.settle(reserved.reservation, usage(5_000, 5_000)).charged).toBe(0);
    expect(budget.remaining().tokens).toBe(9_700);
  });

  it('a failed request refunds its whole tranche but its call stays spent', () => {
    const budget = createBudget({ calls: 2, tokens: 1_000, depth: 1 });
    const reserved = budget.reserve();
    if (!reserved.ok) throw new Error('expected a reservation');
    budget.settle(reserved.reservation, null);
    expect(budget.remaining()).toEqual({ calls: 1, tokens: 1_000, depth: 1 });
  });

  it('refuses once calls or tokens are gone, saying which', () => {
    const calls = createBudget({ calls: 1, tokens: 1_000, depth: 1 });
    expect(calls.reserve().ok).toBe(true);
    expect(calls.reserve()).toMatchObject({ ok: false, exhausted: 'calls' });

    const tokens = createBudget({ calls: 10, tokens: 100, depth: 1 });
    const r = tokens.reserve();
    if (!r.ok) throw new Error('expected a reservation');
    tokens.settle(r.reservation, usage(100, 0));
    expect(tokens.reserve()).toMatchObject({ ok: false, exhausted: 'tokens' });
    expect(tokens.blocked()).toBe('tokens');
  });

  it('input beyond the pool is recorded as overdrawn, never as spend above the pool', () => {
    const budget = createBudget({ calls: 10, tokens: 100, depth: 1 });
    const r = budget.reserve();
    if (!r.ok) throw new Error('expected a reservation');
    const settlement = budget.settle(r.reservation, usage(500, 20));
    expect(settlement).toMatchObject({ charged: 100, overdrawn: 420 });
    expect(budget.totals()).toMatchObject({ tokensSettled: 100, tokensOverdrawn: 420 });
    expect(budget.reserve()).toMatchObject({ ok: false, exhausted: 'tokens' });
  });
});

describe('trees', () => {
  it('children share the pool, lower the depth and keep their own tally', () => {
    const root = createBudget({ calls: 10, tokens: 10_000, depth: 2 });
    const child = root.child();
    const grandchild = child.child();
    expect([root.depth, child.depth, grandchild.depth]).toEqual([2, 1, 0]);
    expect(grandchild.reserve()).toMatchObject({ ok: false, exhausted: 'depth' });

    const r = child.reserve();
    if (!r.ok) throw new Error('expected a reservation');
    child.settle(r.reservation, usage(50, 50));
    expect(child.spent()).toEqual({ calls: 1, tokens: 100 });
    expect(root.spent()).toEqual({ calls: 1, tokens: 100 });
    expect(root.remaining()).toMatchObject({ calls: 9, tokens: 9_900 });

    const sibling = root.branch();
    expect(sibling.depth).toBe(2);
    expect(sibling.spent()).toEqual({ calls: 0, tokens: 0 });
  });

  it('the ledger logs every reserve and settle', () => {
    const budget = createBudget({ calls: 3, tokens: 1_000, depth: 1 });
    const log: LedgerEntry[] = [];
    budget.onLedger((entry) => log.push(entry));
    const r = budget.reserve();
    if (!r.ok) throw new Error('expected a reservation');
    budget.settle(r.reservation, usage(10, 5));
    expect(log.map((e) => e.kind)).toEqual(['reserve', 'settle']);
    expect(log[1]).toMatchObject({ billable: 15, charged: 15, outstanding: 0, settled: 15 });
  });
});
