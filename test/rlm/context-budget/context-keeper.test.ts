/** The loop's bookkeeping for compaction: where outputs sit, and the budget settings. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { heuristicEstimator } from '../../../src/lm/tokens/index.js';
import { inputBudget } from '../../../src/rlm/context-budget/budget.js';
import { ContextKeeper } from '../../../src/rlm/context-budget/context-keeper.js';
import { resolveSettings } from '../../../src/rlm/settings.js';

const keeper = () =>
  new ContextKeeper({
    budget: inputBudget({ contextTokens: 32_768, maxTokens: 1024 }),
    estimator: heuristicEstimator,
    summarize: async () => 'summary',
    now: () => 0,
  });

describe('ContextKeeper.addTurn', () => {
  it('marks each output inside its message, pointing at its entry in `history`; the rest stays text', () => {
    const k = keeper();
    k.addFixed(2);
    k.addOutput('first full');
    k.addOutput('second full');
    const content = 'Output of block 1:\nfirst\n\nOutput of block 2:\nsecond\n\nTurn 2/30.';
    k.addTurn(
      [
        { role: 'assistant', content: '```repl\nprint(1)\n```' },
        { role: 'user', content },
      ],
      1,
      [
        { shown: 'Output of block 1:\nfirst', full: 'first full', block: 1 },
        { shown: 'Output of block 2:\nsecond', full: 'second full', block: 2 },
      ],
    );
    expect(k.meta).toHaveLength(4);
    expect(k.meta[2]).toEqual({ turn: 1 });
    const parts = k.meta[3]?.parts ?? [];
    expect(parts.map((p) => p.kind)).toEqual(['output', 'text', 'output', 'text']);
    expect(parts.map((p) => p.text).join('')).toBe(content);
    expect(parts.filter((p) => p.kind === 'output').map((p) => p.ref)).toEqual([
      'history[0]',
      'history[1]',
    ]);
  });

  it('keeps a message with no output (a nudge, a refused tool call) whole', () => {
    const k = keeper();
    k.addTurn([{ role: 'tool', toolCallId: 'c1', content: 'refused' }], 3, []);
    expect(k.meta[0]).toEqual({ turn: 3, parts: [{ kind: 'text', text: 'refused' }] });
  });
});

describe('budget settings', () => {
  it('takes the window from the root role and the thresholds from the profile or the run', () => {
    const s = resolveSettings({
      root: { contextTokens: 32_768, maxTokens: 1024 },
      run: { compactionThresholdPct: 0.6 },
      overrides: { hardCeilingPct: 0.8 },
    });
    expect(s.budget).toEqual({
      contextTokens: 32_768,
      maxTokens: 1024,
      limitTokens: Math.floor(0.8 * 32_768),
      compactAtTokens: Math.floor(0.6 * 32_768),
      compactionThresholdPct: 0.6,
      hardCeilingPct: 0.8,
    });
  });

  it('refuses thresholds out of order with a ConfigError naming the rule', () => {
    const bad = () =>
      resolveSettings({ overrides: { compactionThresholdPct: 0.9, hardCeilingPct: 0.8 } });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/compaction_threshold_pct < hard_ceiling_pct <= 1/);
  });
});
