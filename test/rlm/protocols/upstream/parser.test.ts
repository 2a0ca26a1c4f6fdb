import { describe, expect, it } from 'vitest';
import {
  findReplBlocks,
  findUpstreamFinal,
} from '../../../../src/rlm/protocols/upstream/parser.js';

describe('findReplBlocks', () => {
  it('finds ```repl fences, in order, with the code stripped', () => {
    const text = [
      'First:',
      '```repl   ',
      '  x = 1',
      'print(x)  ',
      '```',
      '```repl',
      'y = 2',
      '```',
    ].join('\n');
    expect(findReplBlocks(text)).toEqual(['x = 1\nprint(x)', 'y = 2']);
  });

  it('finds ```python fences the same way', () => {
    expect(
      findReplBlocks('Look:\n```python\nprint(len(context))\n```\n```python \nz = 3\n```'),
    ).toEqual(['print(len(context))', 'z = 3']);
  });

  it('keeps repl and python blocks of a mixed reply in document order, ignoring other forms', () => {
    const text = [
      '```python',
      'a = 1',
      '```',
      '```py',
      'ignored_py = True',
      '```',
      '```repl',
      'b = 2',
      '```',
      '```python3',
      'ignored_py3 = True',
      '```',
      '<tool_call>repl\nz = 3</tool_call>',
      '```python',
      'c = 3',
      '```',
    ].join('\n');
    expect(findReplBlocks(text)).toEqual(['a = 1', 'b = 2', 'c = 3']);
  });

  it('needs a newline before the closing fence', () => {
    expect(findReplBlocks('```repl\nx = 1```')).toEqual([]);
    expect(findReplBlocks('no code here')).toEqual([]);
  });
});

describe('findUpstreamFinal', () => {
  it('looks for FINAL_VAR first, then FINAL, only at line start', () => {
    expect(findUpstreamFinal('FINAL(a)\nFINAL_VAR(b)')).toEqual({
      kind: 'final_var',
      variable: 'b',
    });
    expect(findUpstreamFinal('Answer:\n  FINAL(Paris)')).toEqual({
      kind: 'final',
      answer: 'Paris',
    });
    expect(findUpstreamFinal('I will write FINAL(x) later')).toBeNull();
    expect(findUpstreamFinal('nothing')).toBeNull();
  });

  it('strips quotes around a FINAL_VAR name', () => {
    expect(findUpstreamFinal('FINAL_VAR("result")')).toEqual({
      kind: 'final_var',
      variable: 'result',
    });
    expect(findUpstreamFinal("FINAL_VAR( 'result' )")).toEqual({
      kind: 'final_var',
      variable: 'result',
    });
  });

  it('keeps nested parentheses, and falls back to the first ) when they never balance', () => {
    expect(findUpstreamFinal('FINAL(f(x) = 2 (approx))')).toEqual({
      kind: 'final',
      answer: 'f(x) = 2 (approx)',
    });
    expect(findUpstreamFinal('FINAL(a (b) c')).toEqual({ kind: 'final', answer: 'a (b' });
    expect(findUpstreamFinal('FINAL(never closed')).toBeNull();
  });
});
