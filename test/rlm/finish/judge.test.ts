import { describe, expect, it } from 'vitest';
import {
  isAnswerDictRef,
  isPlanLike,
  type JudgeContext,
  judgeAnswerDict,
  judgeFinal,
} from '../../../src/rlm/finish/judge.js';
import { proseAnswer } from '../../../src/rlm/finish/prose-answer.js';
import { looksLikeCode } from '../../../src/rlm/protocols/fence/grammar.js';
import type { AnswerState, VariableValue } from '../../../src/sandbox/sandbox.js';

/** A REPL state for the judge: plain data standing in for the variables a real REPL holds. */
function ctx(
  vars: Record<string, string>,
  answer: AnswerState,
  over: Partial<JudgeContext> = {},
): JudgeContext {
  return {
    hadCode: false,
    planRejected: false,
    reverified: false,
    wasPrinted: () => true,
    reader: {
      getVariable: async (name: string): Promise<VariableValue> =>
        name in vars ? { exists: true, type: 'str', text: vars[name] ?? '' } : { exists: false },
      readAnswer: async () => answer,
    },
    ...over,
  };
}
const noAnswer = { ready: false, content: '' };

describe('judgeFinal', () => {
  it('accepts a plain FINAL without code', async () => {
    const j = await judgeFinal(
      { kind: 'final', answer: '42', viaToolCall: false },
      ctx({}, noAnswer),
    );
    expect(j.decision).toEqual({ kind: 'final', answer: '42', accepted: true });
  });

  it('refuses a FINAL over the answer limit, keeping only its size', async () => {
    const j = await judgeFinal(
      { kind: 'final', answer: 'a'.repeat(10_000_001), viaToolCall: false },
      ctx({}, noAnswer),
    );
    expect(j).toEqual({
      decision: { kind: 'final', accepted: false, reason: 'too_long' },
      reject: 'too_long',
      chars: 10_000_001,
    });
  });

  it('quotes a huge FINAL_VAR argument cut, with its size', async () => {
    const j = await judgeFinal(
      { kind: 'final_var', variable: 'n'.repeat(5_000_000), viaToolCall: false },
      ctx({}, noAnswer),
    );
    expect(j.reject).toBe('missing_variable');
    expect(j.decision.variable).toBe(`${'n'.repeat(200)}... (5,000,000 characters)`);
  });

  it('rejects a FINAL next to code that had not run', async () => {
    const j = await judgeFinal(
      { kind: 'final', answer: '42', viaToolCall: false },
      ctx({}, noAnswer, { hadCode: true }),
    );
    expect(j.reject).toBe('code_not_run');
    expect(j.decision.accepted).toBe(false);
  });

  it('rejects a plan-like FINAL once, then accepts it', async () => {
    const c = { kind: 'final' as const, answer: 'I will now search the logs.', viaToolCall: false };
    expect((await judgeFinal(c, ctx({}, noAnswer))).reject).toBe('plan_like');
    expect((await judgeFinal(c, ctx({}, noAnswer, { planRejected: true }))).decision.accepted).toBe(
      true,
    );
  });

  it('rejects FINAL_VAR of a missing name and reads an existing one', async () => {
    const missing = await judgeFinal(
      { kind: 'final_var', variable: 'nope', viaToolCall: false },
      ctx({}, noAnswer),
    );
    expect(missing.reject).toBe('missing_variable');
    const found = await judgeFinal(
      { kind: 'final_var', variable: 'total', viaToolCall: false },
      ctx({ total: '1,234' }, noAnswer),
    );
    expect(found.decision).toMatchObject({ accepted: true, answer: '1,234', variable: 'total' });
  });

  it('reads FINAL_VAR(answer["content"]) from the answer dict', async () => {
    const j = await judgeFinal(
      { kind: 'final_var', variable: 'answer["content"]', viaToolCall: false },
      ctx({}, { ready: false, content: 'Lincoln' }),
    );
    expect(j.decision).toMatchObject({ accepted: true, answer: 'Lincoln' });
  });

  it('asks to re-verify a value that was never printed, once', async () => {
    const c = { kind: 'final_var' as const, variable: 'x', viaToolCall: false };
    const first = await judgeFinal(c, ctx({ x: 'secret' }, noAnswer, { wasPrinted: () => false }));
    expect(first.reject).toBe('unverified');
    const second = await judgeFinal(
      c,
      ctx({ x: 'secret' }, noAnswer, { wasPrinted: () => false, reverified: true }),
    );
    expect(second.decision.accepted).toBe(true);
  });

  it('judges the answer dict the same way', () => {
    expect(
      judgeAnswerDict({ ready: true, content: 'yes' }, ctx({}, noAnswer)).decision.accepted,
    ).toBe(true);
    expect(judgeAnswerDict({ ready: true, content: ' ' }, ctx({}, noAnswer)).reject).toBe('empty');
  });
});

describe('helpers', () => {
  it('recognises answer dict references', () => {
    expect(isAnswerDictRef("answer['content']")).toBe(true);
    expect(isAnswerDictRef('answer')).toBe(true);
    expect(isAnswerDictRef('answers')).toBe(false);
  });

  it('spots plan-like finals', () => {
    expect(isPlanLike("I'll check the totals next")).toBe(true);
    expect(isPlanLike('Let me look at the data')).toBe(true);
    expect(isPlanLike('The passphrase is tangerine')).toBe(false);
  });

  it('proseAnswer removes code and tool calls, and never returns code', () => {
    const reply = 'The answer is 7.\n```repl\nprint(7)\n```\n<tool_call>repl\nx=1</tool_call>';
    expect(proseAnswer(reply)).toBe('The answer is 7.');
    expect(proseAnswer('Let me run this:\n```repl\nprint(1)\n```')).toBe('');
    expect(proseAnswer('```repl\nprint(1)\n```')).toBe('');
    expect(proseAnswer('FINAL ≈ **$91,049.09**')).toBe('FINAL ≈ **$91,049.09**');
    expect(looksLikeCode(proseAnswer('Here it is:\n```python\nx = 1\n```'))).toBe(false);
  });
});
