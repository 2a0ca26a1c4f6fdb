import { describe, expect, it } from 'vitest';
import type { RejectReason } from '../../../src/rlm/finish/judge.js';
import { decomposeNudge, noActionNudge, shouldDecompose } from '../../../src/rlm/finish/nudges.js';
import { getPromptVersion } from '../../../src/rlm/prompts/index.js';
import { rejectNudge } from '../../../src/rlm/prompts/nudges.js';

const REASONS: RejectReason[] = [
  'code_not_run',
  'plan_like',
  'missing_variable',
  'empty',
  'unverified',
  'too_long',
];

describe('nudges', () => {
  it('words every rejection for both protocols: FINAL text, or the final_answer tool', () => {
    for (const reason of REASONS) {
      const fence = rejectNudge('fence', reason, { variable: 'v', chars: 12_000_000 });
      const tools = rejectNudge('tools', reason, { variable: 'v', chars: 12_000_000 });
      expect(fence.kind).toBe(tools.kind);
      expect(fence.text).not.toBe(tools.text);
      expect(tools.text).toMatch(/final_answer|execute_python/);
    }
    expect(rejectNudge('fence', 'missing_variable', { variable: 'total' }).text).toContain(
      'FINAL_VAR(total)',
    );
    expect(rejectNudge('tools', 'too_long', { chars: 12_000_000 }).text).toContain('12,000,000');
    expect(rejectNudge('fence', 'plan_like', {}).kind).toBe('plan_final');
    expect(rejectNudge('tools', 'unverified', {}).kind).toBe('reverify');
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
