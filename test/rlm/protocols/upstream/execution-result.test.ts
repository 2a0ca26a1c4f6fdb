import { describe, expect, it } from 'vitest';
import {
  cutUpstreamResult,
  formatUpstreamResult,
  listedVariableNames,
  upstreamBlockOutput,
  upstreamExecutionMessage,
} from '../../../../src/rlm/protocols/upstream/execution-result.js';

const vars = [
  { name: 'context', type: 'str' },
  { name: 'llm_query', type: 'function' },
  { name: '_private', type: 'int' },
  { name: 'counts', type: 'Counter' },
  { name: 'df', type: 'DataFrame' },
  { name: 'history', type: 'list' },
  { name: 'pairs', type: 'tuple' },
];

describe('formatUpstreamResult', () => {
  it('joins stdout, stderr and the variable list with blank lines', () => {
    const result = formatUpstreamResult(
      { stdout: 'hello\n', stderr: 'warn\n', variables: vars },
      new Set(['history']),
    );
    expect(result).toBe(
      "\nhello\n\n\n\nwarn\n\n\nREPL variables: ['context', 'counts', 'pairs']\n",
    );
  });

  it('omits empty parts, and says No output when nothing is left', () => {
    expect(formatUpstreamResult({ stdout: 'x', stderr: '', variables: [] })).toBe('\nx');
    expect(formatUpstreamResult({ stdout: '', stderr: '', variables: [] })).toBe('No output');
    expect(
      formatUpstreamResult({
        stdout: '',
        stderr: '',
        variables: [{ name: 'f', type: 'function' }],
      }),
    ).toBe('No output');
  });

  it('filters variables by name and type, keeping their order', () => {
    expect(listedVariableNames(vars)).toEqual(['context', 'counts', 'history', 'pairs']);
  });
});

describe('cutUpstreamResult', () => {
  it('keeps 20,000 characters and says how many were cut', () => {
    const long = 'a'.repeat(20_000);
    expect(cutUpstreamResult(long)).toEqual({ text: long, cut: 0 });
    expect(cutUpstreamResult(`${long}bcdef`)).toEqual({
      text: `${long}... + [5 chars...]`,
      cut: 5,
    });
    expect(cutUpstreamResult('abcdef', 4)).toEqual({ text: 'abcd... + [2 chars...]', cut: 2 });
  });

  it('counts code points like Python', () => {
    expect(cutUpstreamResult('😀😀😀', 2)).toEqual({ text: '😀😀... + [1 chars...]', cut: 1 });
  });
});

describe('upstreamExecutionMessage', () => {
  it('echoes the code in a python fence, then the REPL output', () => {
    expect(upstreamExecutionMessage('print(1)', '\n1\n')).toBe(
      'Code executed:\n```python\nprint(1)\n```\n\nREPL output:\n\n1\n',
    );
  });
});

describe('upstreamBlockOutput', () => {
  it('appends the exception to stderr as upstream does, with its line number', () => {
    const out = upstreamBlockOutput(
      {
        stdout: 'partial\n',
        stderr: '',
        stdoutChars: 8,
        stderrChars: 0,
        stdoutOverflow: false,
        stderrOverflow: false,
        error: { type: 'NameError', message: "name 'y' is not defined", line: 2, traceback: '' },
        elapsedMs: 1,
        changedNames: [],
        restoredNames: [],
        hostCalls: 0,
        timedOut: false,
      },
      [{ name: 'x', type: 'int' }],
    );
    expect(formatUpstreamResult(out)).toBe(
      "\npartial\n\n\n\n\nNameError: name 'y' is not defined (line 2)\n\nREPL variables: ['x']\n",
    );
  });
});
