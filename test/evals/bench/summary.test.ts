import { describe, expect, it } from 'vitest';
import type { BenchRow } from '../../../src/evals/bench/row.js';
import { resultOverSeeds, summarizeRows } from '../../../src/evals/bench/summary.js';

function row(fields: Partial<BenchRow>): BenchRow {
  return {
    task: 'needle',
    size: 1000,
    unit: 'lines',
    seed: 0,
    mode: 'rlm',
    status: 'ok',
    profile: 'p',
    finishedAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

describe('bench summary', () => {
  it('words the result over seeds by task kind', () => {
    expect(
      resultOverSeeds([
        row({ exact: true, summary: 'found' }),
        row({ exact: false, summary: 'not found' }),
        row({ exact: true, summary: 'found' }),
      ]),
    ).toBe('2/3 found');
    expect(
      resultOverSeeds([
        row({ exact: true, summary: 'exact' }),
        row({ exact: false, summary: 'abs error 34' }),
      ]),
    ).toBe('exact 1/2; misses: abs error 34');
    expect(
      resultOverSeeds([row({ summary: '3/3 questions' }), row({ summary: '2/3 questions' })]),
    ).toBe('5/6 questions');
    expect(
      resultOverSeeds([
        row({ status: 'does_not_fit', promptTokens: 74_000 }),
        row({ status: 'does_not_fit', promptTokens: 75_000 }),
      ]),
    ).toBe('does not fit (~75K tokens)');
    expect(
      resultOverSeeds([
        row({ status: 'does_not_fit', promptTokens: 40_000 }),
        row({ exact: false, summary: 'abs error 360' }),
      ]),
    ).toBe('exact 0/1; misses: abs error 360; 1 of 2 do not fit');
  });

  it('prints one line per task, size and mode with medians', () => {
    const table = summarizeRows([
      row({ mode: 'plain', status: 'does_not_fit', promptTokens: 1_500_000 }),
      row({ seed: 0, exact: true, summary: 'found', seconds: 2, subcalls: 0 }),
      row({ seed: 1, exact: true, summary: 'found', seconds: 4, subcalls: 2 }),
      row({ seed: 2, exact: true, summary: 'found', seconds: 9, subcalls: 1 }),
    ]).split('\n');
    expect(table[0]).toBe(
      '| Task | Size | Mode | Result over seeds | Median s | Median sub-calls |',
    );
    expect(table[2]).toBe('| needle | 1,000 lines | rlm | 3/3 found (3 seeds) | 4.0 | 1 |');
    expect(table[3]).toBe(
      '| needle | 1,000 lines | plain | does not fit (~1.5M tokens) (1 seed) | – | – |',
    );
  });
});
