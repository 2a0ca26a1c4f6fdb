import { describe, expect, it } from 'vitest';
import {
  findFinal,
  looksLikeCode,
  parseReply,
  proseOf,
} from '../../../../src/rlm/protocols/fence/grammar.js';

describe('parseReply: fences', () => {
  it('collects ```repl and ```python blocks in document order', () => {
    const reply = 'Look first.\n```repl\nx = 1\nprint(x)\n```\nthen\n```python\nprint(2)\n```\n';
    const parsed = parseReply(reply);
    expect(parsed.blocks.map((b) => b.code)).toEqual(['x = 1\nprint(x)', 'print(2)']);
    expect(parsed.final).toBeNull();
  });

  it('ignores other fence languages and runs an unclosed fence to the end', () => {
    const parsed = parseReply('```js\nconsole.log(1)\n```\n```repl\nprint(3)');
    expect(parsed.blocks).toEqual([{ code: 'print(3)', source: 'fence', complete: false }]);
  });

  it('ignores FINAL inside a code fence', () => {
    const parsed = parseReply('```repl\nFINAL("not this")\nprint(1)\n```');
    expect(parsed.final).toBeNull();
    expect(parsed.blocks).toHaveLength(1);
  });

  it('runs ```py and ```python3 too, and a bare ``` fence is not code', () => {
    const parsed = parseReply('```\n| a | b |\n```\n```py\nx = 1\n```\n```Python3  \ny = 2\n```');
    expect(parsed.blocks.map((b) => b.code)).toEqual(['x = 1', 'y = 2']);
  });
});

describe('parseReply: FINAL and FINAL_VAR', () => {
  it('takes the balanced text of FINAL, nested parentheses included', () => {
    expect(parseReply('Done.\nFINAL(f(a, b))').final).toEqual({
      kind: 'final',
      answer: 'f(a, b)',
      viaToolCall: false,
    });
    expect(parseReply('FINAL(The total is 42 (after refunds).) trailing').final).toMatchObject({
      answer: 'The total is 42 (after refunds).',
    });
  });

  it('spans lines and strips one pair of enclosing quotes', () => {
    expect(parseReply('FINAL(line one\nline two)').final).toMatchObject({
      answer: 'line one\nline two',
    });
    expect(parseReply('FINAL("Paris")').final).toMatchObject({ answer: 'Paris' });
  });

  it('counts FINAL only at the start of a line', () => {
    expect(parseReply('I could write FINAL(x) later.').final).toBeNull();
    expect(parseReply('  FINAL(indented ok)').final).toMatchObject({ answer: 'indented ok' });
  });

  it('an unbalanced FINAL takes the rest of the text', () => {
    expect(parseReply('FINAL(a (b) c').final).toMatchObject({ answer: 'a (b) c' });
    expect(parseReply('FINAL(cut off').final).toMatchObject({ answer: 'cut off' });
    expect(parseReply('FINAL(a (b)').final).toMatchObject({ answer: 'a (b' });
  });

  it('reads FINAL_VAR names, quoted names and the answer dict reference', () => {
    expect(parseReply('FINAL_VAR(result)').final).toEqual({
      kind: 'final_var',
      variable: 'result',
      viaToolCall: false,
    });
    expect(parseReply('FINAL_VAR("total")').final).toMatchObject({ variable: 'total' });
    expect(parseReply("FINAL_VAR(answer['content'])").final).toMatchObject({
      variable: "answer['content']",
    });
  });

  it('reports the FINAL next to code (the loop decides)', () => {
    const parsed = parseReply('```repl\nx = 2\n```\nFINAL_VAR(x)');
    expect(parsed.blocks).toHaveLength(1);
    expect(parsed.final).toMatchObject({ kind: 'final_var', variable: 'x' });
  });

  it('finds FINAL after a bare fence closes, and none inside a runnable one', () => {
    expect(parseReply('```\ntable\n```\nFINAL(after)').final).toMatchObject({ answer: 'after' });
    expect(parseReply('```repl\nprint(1)\nFINAL(inside)').final).toBeNull();
  });

  it('findFinal returns null without FINAL', () => {
    expect(findFinal('nothing here')).toBeNull();
  });
});

describe('parseReply: text-form tool calls', () => {
  it('runs a <tool_call>repl block and ends code at </arg_value>, ignoring later arguments', () => {
    const reply =
      '<tool_call>repl\n<arg_key>code</arg_key>\n<arg_value>print(len(context))\n</arg_value>\n<arg_key>description</arg_key><arg_value>size</arg_value></tool_call>';
    const parsed = parseReply(reply);
    expect(parsed.blocks).toEqual([
      { code: 'print(len(context))', source: 'tool_call', complete: true },
    ]);
    expect(parsed.toolCallFirst).toBe(true);
  });

  it('accepts the python and execute_python names and each end marker', () => {
    for (const end of ['</arg_value>', '</value>', '</repl>', '</tool_call>', '</think>']) {
      const parsed = parseReply(`<tool_call>execute_python\nx = 1${end} rest`);
      expect(parsed.blocks[0]?.code).toBe('x = 1');
    }
    expect(parseReply('<tool_call>python\nprint(1)').blocks[0]?.code).toBe('print(1)');
  });

  it('when the first code is a tool call, drops everything after it (made-up output, FINAL)', () => {
    const reply =
      '<tool_call>repl\nprint(1)</tool_call>\n```repl\n1\n```\n<tool_call>repl\nprint(2)</tool_call>\nFINAL(1)';
    const parsed = parseReply(reply);
    expect(parsed.blocks.map((b) => b.code)).toEqual(['print(1)']);
    expect(parsed.final).toBeNull();
  });

  it('a reply that opens with a fence runs later tool calls in document order', () => {
    const reply =
      '```repl\nprint(1)\n```\ntext\n<tool_call>repl\nprint(2)</tool_call>\n```repl\nprint(3)\n```';
    const parsed = parseReply(reply);
    expect(parsed.blocks.map((b) => b.code)).toEqual(['print(1)', 'print(2)', 'print(3)']);
    expect(parsed.toolCallFirst).toBe(false);
  });

  it('treats <tool_call>FINAL(...) as a FINAL', () => {
    expect(parseReply('<tool_call>FINAL(42)</tool_call>').final).toEqual({
      kind: 'final',
      answer: '42',
      viaToolCall: true,
    });
    expect(parseReply('<tool_call>FINAL_VAR(total)</tool_call>').final).toMatchObject({
      kind: 'final_var',
      variable: 'total',
    });
  });
});

describe('proseOf and looksLikeCode', () => {
  it('drops fenced blocks of any language and text-form tool calls', () => {
    const reply =
      'The answer is 7.\n```bash\nls\n```\nSee above.\n<tool_call>repl\nx=1</tool_call>\n```repl\nunclosed';
    expect(proseOf(reply)).toBe('The answer is 7.\n\nSee above.\n');
    // A fence opening on the last line has no body, so it stays (and reads as code).
    expect(looksLikeCode(proseOf('Done.\n```'))).toBe(true);
    expect(looksLikeCode('The total is 42.')).toBe(false);
  });
});
