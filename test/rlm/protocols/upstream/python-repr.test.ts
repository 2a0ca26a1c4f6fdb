import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  pyHead,
  pyLen,
  pyListRepr,
  pyStrRepr,
} from '../../../../src/rlm/protocols/upstream/python-repr.js';

const samples = [
  'context',
  "it's",
  'say "hi"',
  `both ' and "`,
  'back\\slash',
  'tab\tnew\nline\rcr',
  'bell\x07 del\x7f nbsp\xa0 shy\xad',
  'café 日本 😀',
  'line\u2028sep',
  '',
];

describe('python repr', () => {
  it('matches CPython repr() for strings and lists', () => {
    const expected = execFileSync(
      'python3',
      [
        '-c',
        'import json,sys; xs=json.load(sys.stdin); print(json.dumps([repr(x) for x in xs] + [repr(xs)]))',
      ],
      { input: JSON.stringify(samples), encoding: 'utf8' },
    );
    const want = JSON.parse(expected) as string[];
    expect(samples.map(pyStrRepr)).toEqual(want.slice(0, samples.length));
    expect(pyListRepr(samples)).toBe(want[samples.length]);
    expect(pyListRepr([1, 22, 333])).toBe('[1, 22, 333]');
    expect(pyListRepr([])).toBe('[]');
  });

  it('counts and cuts by code points, as Python does', () => {
    expect(pyLen('a😀b')).toBe(3);
    expect(pyHead('a😀b', 2)).toBe('a😀');
    expect(pyHead('abc', 5)).toBe('abc');
  });
});
