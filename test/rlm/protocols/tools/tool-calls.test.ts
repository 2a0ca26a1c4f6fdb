import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../../../src/lm/model.js';
import {
  findFinalAction,
  parseToolArguments,
  parseToolCall,
  parseToolCalls,
} from '../../../../src/rlm/protocols/tools/tool-calls.js';
import { rootTools } from '../../../../src/rlm/protocols/tools/tool-specs.js';

const call = (name: string, args: string, id = `id-${name}`): ToolCall => ({
  id,
  name,
  arguments: args,
});

describe('tool specs', () => {
  it('defines execute_python(code) and final_answer(answer | variable) as JSON schemas', () => {
    expect(rootTools.map((t) => t.name)).toEqual(['execute_python', 'final_answer']);
    const [exec, fin] = rootTools;
    expect(exec?.parameters).toMatchObject({
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'string' } },
    });
    expect(fin?.parameters).toMatchObject({
      type: 'object',
      properties: { answer: { type: 'string' }, variable: { type: 'string' } },
    });
    expect(fin?.parameters.required).toBeUndefined();
    for (const tool of rootTools) expect(tool.description.length).toBeGreaterThan(40);
  });
});

describe('parseToolArguments', () => {
  it('accepts an object, treats an empty string as {}, refuses other JSON and bad JSON', () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseToolArguments('  ')).toEqual({ ok: true, value: {} });
    expect(parseToolArguments('[1]')).toMatchObject({ ok: false });
    expect(parseToolArguments('"x"')).toMatchObject({ ok: false });
    const bad = parseToolArguments('{"code": "print(1)"');
    expect(bad.ok).toBe(false);
  });
});

describe('parseToolCall', () => {
  it('turns execute_python into an execute action with its code', () => {
    const c = call('execute_python', JSON.stringify({ code: 'print(len(context))' }));
    expect(parseToolCall(c)).toEqual({ kind: 'execute', call: c, code: 'print(len(context))' });
  });

  it('rejects execute_python with missing or empty code', () => {
    expect(parseToolCall(call('execute_python', '{}'))).toMatchObject({
      kind: 'rejected',
      wasFinal: false,
      reason: expect.stringContaining('`code`'),
    });
    expect(parseToolCall(call('execute_python', '{"code":"  "}'))).toMatchObject({
      kind: 'rejected',
      reason: expect.stringContaining('empty'),
    });
  });

  it('rejects malformed JSON arguments with a reason naming the tool', () => {
    const action = parseToolCall(call('final_answer', '{"answer": "4'));
    expect(action).toMatchObject({ kind: 'rejected', wasFinal: true });
    expect(action.kind === 'rejected' && action.reason).toMatch(/final_answer.*not a valid JSON/);
  });

  it('rejects an unknown tool name and lists the real ones', () => {
    const action = parseToolCall(call('run_code', '{"code":"1"}'));
    expect(action).toMatchObject({ kind: 'rejected', wasFinal: false });
    expect(action.kind === 'rejected' && action.reason).toMatch(
      /"run_code".*execute_python or final_answer/,
    );
  });

  it('accepts exactly one of answer and variable', () => {
    expect(parseToolCall(call('final_answer', '{"answer":"Paris"}'))).toMatchObject({
      kind: 'final',
      answer: 'Paris',
    });
    expect(parseToolCall(call('final_answer', '{"answer":42}'))).toMatchObject({
      kind: 'final',
      answer: '42',
    });
    expect(parseToolCall(call('final_answer', '{"variable":" result "}'))).toMatchObject({
      kind: 'final_var',
      variable: 'result',
    });
    // null counts as absent
    expect(parseToolCall(call('final_answer', '{"answer":"x","variable":null}'))).toMatchObject({
      kind: 'final',
      answer: 'x',
    });
  });

  it('rejects both, neither, an empty answer and a variable that is not a name', () => {
    const both = parseToolCall(call('final_answer', '{"answer":"x","variable":"y"}'));
    expect(both).toMatchObject({ kind: 'rejected', wasFinal: true });
    expect(both.kind === 'rejected' && both.reason).toMatch(/exactly one.*not both/);
    const neither = parseToolCall(call('final_answer', '{}'));
    expect(neither.kind === 'rejected' && neither.reason).toMatch(/needs one argument/);
    expect(parseToolCall(call('final_answer', '{"answer":"  "}'))).toMatchObject({
      kind: 'rejected',
      reason: expect.stringContaining('empty'),
    });
    const expr = parseToolCall(call('final_answer', '{"variable":"x[0]"}'));
    expect(expr.kind === 'rejected' && expr.reason).toMatch(/bare name.*"x\[0\]"/);
    expect(parseToolCall(call('final_answer', '{"answer":{"a":1}}'))).toMatchObject({
      kind: 'rejected',
    });
  });
});

describe('parseToolCalls', () => {
  it('rejects a final sent next to code, keeping the code', () => {
    const actions = parseToolCalls([
      call('execute_python', '{"code":"x = 1"}', 'a'),
      call('final_answer', '{"answer":"1"}', 'b'),
    ]);
    expect(actions.map((a) => a.kind)).toEqual(['execute', 'rejected']);
    const rejected = actions[1];
    expect(rejected?.kind === 'rejected' && rejected.wasFinal).toBe(true);
    expect(rejected?.kind === 'rejected' && rejected.reason).toMatch(
      /same reply as execute_python/,
    );
    expect(findFinalAction(actions)).toBeUndefined();
  });

  it('lets a final next to a rejected (never run) execute_python through', () => {
    const actions = parseToolCalls([
      call('execute_python', '{}', 'a'),
      call('final_answer', '{"answer":"1"}', 'b'),
    ]);
    expect(actions.map((a) => a.kind)).toEqual(['rejected', 'final']);
  });

  it('keeps only the first valid final of a reply', () => {
    const actions = parseToolCalls([
      call('final_answer', '{"variable":"v"}', 'a'),
      call('final_answer', '{"answer":"2"}', 'b'),
    ]);
    expect(actions.map((a) => a.kind)).toEqual(['final_var', 'rejected']);
    expect(findFinalAction(actions)).toMatchObject({ kind: 'final_var', variable: 'v' });
  });
});
