import { describe, expect, it } from 'vitest';
import { findReplBlocks, findUpstreamFinal } from '../../../src/rlm/upstream/parse.js';

describe('findReplBlocks', () => {
  it('finds only ```repl fences, in order, with the code stripped', () => {
    const text = [
      'First:',
      '```repl   ',
      '  x = 1',
      'print(x)  ',
      '```',
      '```python',
      'ignored = True',
      '```',
      '```repl',
      'y = 2',
      '```',
      '<tool_call>repl\nz = 3</tool_call>',
    ].join('\n');
    expect(findReplBlocks(text)).toEqual(['x = 1\nprint(x)', 'y = 2']);
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
