import { describe, expect, it } from 'vitest';
import { parseReply } from '../../../../src/rlm/protocols/fence/grammar.js';
import { decideNoToolCall, detectSlip } from '../../../../src/rlm/protocols/tools/slip.js';

const slip = (text: string) => detectSlip(parseReply(text));

describe('detectSlip', () => {
  it('finds code the fence grammar would run, text-form tool calls and line-start FINAL', () => {
    expect(slip('Let me look.\n```python\nprint(1)\n```')).toBe('code');
    expect(slip('```repl\nx = 1\n```')).toBe('code');
    expect(slip('<tool_call>execute_python\nprint(1)</tool_call>')).toBe('code');
    expect(slip('Done.\nFINAL(42)')).toBe('final');
    expect(slip('  FINAL_VAR(result)')).toBe('final');
    expect(slip('```python\nx=1\n```\nFINAL(1)')).toBe('code');
  });

  it('ignores prose, fences that would not run and FINAL that is not at a line start', () => {
    expect(slip('I will call the tool next.')).toBeNull();
    expect(slip('```json\n{"a": 1}\n```')).toBeNull();
    expect(slip('When done I will write FINAL(x).')).toBeNull();
    expect(slip('```repl\n```')).toBeNull();
  });

  it('a bare ``` fence (a table, a shell example) is no slip, since nothing in it would run', () => {
    expect(slip('So far:\n```\n| line | text |\n| 700 | ? |\n```')).toBeNull();
    expect(slip('```\nprint(2)\n```')).toBeNull();
  });
});

describe('decideNoToolCall', () => {
  it('honours the first slip of a run and only nudges later ones', () => {
    const first = decideNoToolCall(parseReply('```python\nprint(1)\n```'), 0);
    expect(first).toMatchObject({ kind: 'honour', slip: 'code' });
    expect(first.note).toMatch(/this once/);
    const second = decideNoToolCall(parseReply('FINAL(3)'), 1);
    expect(second).toMatchObject({ kind: 'nudge', slip: 'final' });
    expect(second.note).toMatch(/nothing ran/);
  });

  it('nudges a reply with no action at all, without calling it a slip', () => {
    const d = decideNoToolCall(parseReply('Thinking about it.'), 0);
    expect(d).toMatchObject({ kind: 'nudge', slip: null });
    expect(d.note).toMatch(/no tool call/);
  });
});
