import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { inputBudget, validateThresholds } from '../../../src/rlm/context-budget/budget.js';

describe('inputBudget', () => {
  it('is the window minus the reply reserve minus a 10% margin', () => {
    expect(inputBudget({ contextTokens: 32_768, maxTokens: 8_192 })).toEqual({
      contextTokens: 32_768,
      maxTokens: 8_192,
      limitTokens: 21_299,
      compactAtTokens: 21_299,
    });
  });

  it('never falls below a quarter of the window', () => {
    expect(inputBudget({ contextTokens: 10_000, maxTokens: 9_000 }).limitTokens).toBe(2_500);
  });

  it('the hard ceiling caps the limit and the threshold starts compaction earlier', () => {
    const budget = inputBudget({
      contextTokens: 100_000,
      maxTokens: 4_000,
      compactionThresholdPct: 0.5,
      hardCeilingPct: 0.8,
    });
    expect(budget.limitTokens).toBe(80_000);
    expect(budget.compactAtTokens).toBe(50_000);
    // A ceiling above the budget leaves the budget in charge; the threshold never exceeds the limit.
    const loose = inputBudget({
      contextTokens: 100_000,
      maxTokens: 40_000,
      compactionThresholdPct: 0.7,
      hardCeilingPct: 1,
    });
    expect(loose.limitTokens).toBe(50_000);
    expect(loose.compactAtTokens).toBe(50_000);
  });

  it.each([
    [{ compactionThresholdPct: 0 }, 'compaction_threshold_pct must be a fraction between 0 and 1'],
    [{ compactionThresholdPct: 1 }, 'compaction_threshold_pct must be a fraction between 0 and 1'],
    [{ hardCeilingPct: 1.2 }, 'hard_ceiling_pct must be a fraction above 0 and at most 1'],
    [{ hardCeilingPct: 0 }, 'hard_ceiling_pct must be a fraction above 0 and at most 1'],
    [{ compactionThresholdPct: 0.9, hardCeilingPct: 0.9 }, 'must be below hard_ceiling_pct'],
  ])('refuses %o', (pcts, message) => {
    const run = () => inputBudget({ contextTokens: 32_768, maxTokens: 4_096, ...pcts });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(message);
    expect(run).toThrow('0 < compaction_threshold_pct < hard_ceiling_pct <= 1');
  });

  it('refuses a window or reply cap that is not a positive whole number', () => {
    expect(() => inputBudget({ contextTokens: 0, maxTokens: 1 })).toThrow(/context_tokens/);
    expect(() => inputBudget({ contextTokens: 1000, maxTokens: 1.5 })).toThrow(/max_tokens/);
  });

  it('validateThresholds accepts either alone', () => {
    expect(() => validateThresholds(0.6, undefined)).not.toThrow();
    expect(() => validateThresholds(undefined, 1)).not.toThrow();
  });
});
