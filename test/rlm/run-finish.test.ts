import { describe, expect, it } from 'vitest';
import { lastUser, ofType, requestText, runScripted } from './helpers.js';

const GREP = "```repl\nhits = grep(context, 'passphrase')\nprint(hits)\n```";

describe('run: finishing rules (real REPL, scripted model)', () => {
  it('grep then FINAL: the output reaches the next request and FINAL ends the run', async () => {
    const { result, root, events } = await runScripted('grep-final', [GREP, 'FINAL(tangerine-42)']);
    expect(result).toMatchObject({
      answer: 'tangerine-42',
      stopReason: 'final',
      turns: 2,
      subcalls: 0,
    });
    const first = requestText(root.calls[0]);
    expect(first).toContain('Turn 1/30');
    expect(first).toContain('Which line holds the passphrase?');
    expect(first).not.toContain('tangerine');
    expect(lastUser(root.calls[1])).toContain('the passphrase is tangerine-42');
    expect(lastUser(root.calls[1])).toContain('Turn 2/30');
    const iterations = ofType(events, 'iteration');
    expect(iterations[0]?.blocks[0]?.result?.stdout).toContain('tangerine-42');
    expect(iterations[1]?.final).toMatchObject({
      kind: 'final',
      accepted: true,
      answer: 'tangerine-42',
    });
  });

  it('FINAL takes balanced parentheses', async () => {
    const { result } = await runScripted('nested-parens', ['FINAL(f(a, b))']);
    expect(result.answer).toBe('f(a, b)');
  });

  it('ignores FINAL inside a code fence (the code runs, the run goes on)', async () => {
    const { result, root } = await runScripted('final-in-fence', [
      "```repl\nnote = 'FINAL(wrong)'\nprint(note)\n```",
      'FINAL(right)',
    ]);
    expect(result).toMatchObject({ answer: 'right', turns: 2 });
    expect(lastUser(root.calls[1])).toContain('FINAL(wrong)');
  });

  it('rejects a FINAL next to code that has not run, runs the code, then accepts a later FINAL', async () => {
    const { result, events, root } = await runScripted('final-with-code', [
      "```repl\nprint('computing')\n```\nFINAL(too early)",
      'FINAL(after looking)',
    ]);
    expect(result).toMatchObject({ answer: 'after looking', turns: 2 });
    const first = ofType(events, 'iteration')[0];
    expect(first?.final).toMatchObject({ accepted: false, reason: 'code_not_run' });
    expect(first?.nudges[0]?.kind).toBe('rejected_final');
    expect(requestText(root.calls[1])).toContain('computing');
  });

  it('reads a FINAL_VAR in the same reply as code after the code runs', async () => {
    const { result } = await runScripted('final-var-same-reply', [
      "```repl\nfound = [l for l in context.splitlines() if 'passphrase' in l][0]\nprint(found)\n```\nFINAL_VAR(found)",
    ]);
    expect(result).toMatchObject({
      answer: 'the passphrase is tangerine-42',
      turns: 1,
      stopReason: 'final',
    });
  });

  it('rejects FINAL_VAR of a missing name and goes on', async () => {
    const { result, events, root } = await runScripted('final-var-missing', [
      'FINAL_VAR(nothing_here)',
      'FINAL(fallback text)',
    ]);
    expect(result.answer).toBe('fallback text');
    const first = ofType(events, 'iteration')[0];
    expect(first?.final).toMatchObject({
      kind: 'final_var',
      accepted: false,
      reason: 'missing_variable',
    });
    expect(lastUser(root.calls[1])).toContain('FINAL_VAR(nothing_here)');
  });

  it('asks to re-verify a value never printed, then accepts it', async () => {
    const { result, events } = await runScripted('reverify', [
      "```repl\nsecret = 'tangerine-' + str(6 * 7)\n```",
      'FINAL_VAR(secret)',
      'FINAL_VAR(secret)',
    ]);
    expect(result).toMatchObject({ answer: 'tangerine-42', turns: 3 });
    const second = ofType(events, 'iteration')[1];
    expect(second?.nudges.map((n) => n.kind)).toEqual(['reverify']);
  });

  it('finishes on the answer dict', async () => {
    const { result } = await runScripted('answer-dict', [
      "```repl\nanswer['content'] = 'tangerine-42'\nprint(answer['content'])\nanswer['ready'] = True\n```",
    ]);
    expect(result).toMatchObject({ answer: 'tangerine-42', stopReason: 'answer_dict', turns: 1 });
  });

  it('accepts FINAL_VAR(answer["content"])', async () => {
    const { result } = await runScripted('final-var-answer-dict', [
      "```repl\nanswer['content'] = 'from the dict'\nprint(answer['content'])\n```",
      'FINAL_VAR(answer["content"])',
    ]);
    expect(result).toMatchObject({ answer: 'from the dict', stopReason: 'final' });
  });

  it('runs a text-form tool call as code and drops what follows it', async () => {
    const { result, events } = await runScripted('tool-call-text', [
      '<tool_call>repl\n<arg_key>code</arg_key>\n<arg_value>x = 6 * 7\nprint(x)</arg_value></tool_call>\n```repl\n42\n```\nFINAL(made up)',
      'FINAL_VAR(x)',
    ]);
    expect(result).toMatchObject({ answer: '42', turns: 2 });
    expect(ofType(events, 'iteration')[0]?.blocks).toHaveLength(1);
  });

  it('rejects a plan-like final once', async () => {
    const { result, events } = await runScripted('plan-final', [
      'FINAL(I will now search the context for the passphrase.)',
      'FINAL(I will answer: tangerine-42)',
    ]);
    expect(ofType(events, 'iteration')[0]?.nudges[0]?.kind).toBe('plan_final');
    expect(result).toMatchObject({ answer: 'I will answer: tangerine-42', turns: 2 });
  });

  it('logs reasoning and never feeds it back', async () => {
    const { root, events } = await runScripted('reasoning', [
      {
        content: '<think>INLINE-THOUGHT</think>```repl\nprint(1)\n```',
        reasoning: 'FIELD-THOUGHT',
      },
      'FINAL(done)',
    ]);
    expect(requestText(root.calls[1])).not.toMatch(/THOUGHT/);
    const first = ofType(events, 'iteration')[0];
    expect(first?.reasoning).toContain('FIELD-THOUGHT');
    expect(first?.reasoning).toContain('INLINE-THOUGHT');
    expect(first?.content).not.toContain('THOUGHT');
  });
});
