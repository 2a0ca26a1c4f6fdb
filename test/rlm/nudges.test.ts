import { describe, expect, it } from 'vitest';
import {
  decomposeNudge,
  noActionNudge,
  rejectNudge,
  shouldDecompose,
} from '../../src/rlm/nudges.js';
import { getPromptVersion } from '../../src/rlm/prompts/index.js';

describe('nudges', () => {
  it('has a text for every rejection reason', () => {
    for (const reason of [
      'code_not_run',
      'plan_like',
      'missing_variable',
      'empty',
      'unverified',
    ] as const) {
      const nudge = rejectNudge(reason, { variable: 'v' });
      expect(nudge.text.length).toBeGreaterThan(20);
    }
    expect(rejectNudge('missing_variable', { variable: 'total' }).text).toContain(
      'FINAL_VAR(total)',
    );
    expect(rejectNudge('plan_like', {}).kind).toBe('plan_final');
    expect(rejectNudge('unverified', {}).kind).toBe('reverify');
    expect(noActionNudge().kind).toBe('no_action');
  });

  it('decompose fires only when one call gets nearly all of a context larger than one call', () => {
    expect(
      shouldDecompose({ promptChars: 95_000, contextChars: 100_000, perCallChars: 12_000 }),
    ).toBe(true);
    expect(
      shouldDecompose({ promptChars: 50_000, contextChars: 100_000, perCallChars: 12_000 }),
    ).toBe(false);
    // The whole context fits in one call: never fires.
    expect(
      shouldDecompose({ promptChars: 60_000, contextChars: 60_000, perCallChars: 78_336 }),
    ).toBe(false);
  });

  it('v0.2 decompose text gives both sizes', () => {
    const text = decomposeNudge(getPromptVersion('v0.2'), {
      promptChars: 95_000,
      contextChars: 100_000,
      perCallChars: 78_336,
    }).text;
    expect(text).toContain('95,000');
    expect(text).toContain('78,336');
  });
});
