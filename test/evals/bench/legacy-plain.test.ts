import { describe, expect, it } from 'vitest';
import { asLegacyVariant, parseLegacyVariant } from '../../../src/evals/bench/legacy-plain.js';
import type { BenchRow } from '../../../src/evals/bench/row.js';
import { summarizeRows } from '../../../src/evals/bench/summary.js';

/** A pre-one-call plain row: the better of two attempts on top, both attempts in `variants`. */
function legacy(seed: number, thinking: boolean, nothink: boolean): BenchRow {
  const attempt = (right: boolean, seconds: number) => ({
    status: 'ok',
    answer: right ? 'Lisbon' : 'Porto',
    score: right ? 1 : 0,
    exact: right,
    summary: right ? 'right' : 'wrong',
    seconds,
    tokens: 100,
  });
  const best = thinking || nothink;
  return {
    task: 'capital',
    size: 100,
    unit: 'lines',
    seed,
    mode: 'plain',
    status: 'ok',
    answer: best ? 'Lisbon' : 'Porto',
    score: best ? 1 : 0,
    exact: best,
    summary: best ? 'right' : 'wrong',
    seconds: 30,
    profile: 'p',
    finishedAt: '2026-10-07T00:00:00.000Z',
    variants: { thinking: attempt(thinking, 20), nothink: attempt(nothink, 10) },
  } as BenchRow;
}

const rows = [legacy(0, true, false), legacy(1, false, true), legacy(2, true, true)];

describe('--legacy-plain', () => {
  it('replaces each best-of-2 row by one attempt, as its own single-call mode', () => {
    expect(summarizeRows(rows)).toContain('| plain | exact 3/3 (3 seeds) |');
    const think = asLegacyVariant(rows, 'thinking');
    expect(think.replaced).toBe(3);
    expect(think.rows.map((r) => [r.mode, r.exact, r.seconds])).toEqual([
      ['plain-think', true, 20],
      ['plain-think', false, 20],
      ['plain-think', true, 20],
    ]);
    expect(summarizeRows(think.rows)).toContain(
      '| plain-think | exact 2/3; misses: wrong (3 seeds) |',
    );
    const nothink = asLegacyVariant(rows, 'nothink');
    expect(summarizeRows(nothink.rows)).toContain(
      '| plain-nothink | exact 2/3; misses: wrong (3 seeds) |',
    );
    expect('variants' in (nothink.rows[0] as object)).toBe(false);
  });

  it('leaves other rows alone and refuses a file with no legacy rows', () => {
    const rlm = { ...rows[0], mode: 'rlm', variants: undefined } as unknown as BenchRow;
    expect(asLegacyVariant([rlm, ...rows], 'thinking').rows[0]).toBe(rlm);
    expect(() => asLegacyVariant([rlm], 'thinking')).toThrow(/no legacy plain rows/);
    expect(() => parseLegacyVariant('best')).toThrow(/thinking or nothink, got "best"/);
  });
});
