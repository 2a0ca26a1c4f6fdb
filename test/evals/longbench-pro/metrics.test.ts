import { describe, expect, it } from 'vitest';
import {
  answerLines,
  f1,
  firstLineAccuracy,
  ndcg,
  pairwiseOrder,
  subEm,
} from '../../../src/evals/longbench-pro/metrics.js';
import { metricFor, scoreItem } from '../../../src/evals/longbench-pro/task-metrics.js';

describe('LongBench Pro answer lines', () => {
  it('reads what follows the last marker, one normalised line each', () => {
    expect(answerLines('I think so.\n[Answer]\n  Blue   Whale \nC')).toEqual(['blue whale', 'c']);
    expect(answerLines('[Answer] draft\n[Answer]\nfinal')).toEqual(['final']);
    expect(answerLines('推理……\n[答案]\n三')).toEqual(['三']);
    expect(answerLines('no marker\nat all')).toEqual(['no marker', 'at all']);
    expect(answerLines('[Answer]   ')).toEqual([]);
  });
});

describe('LongBench Pro metrics against hand-computed values', () => {
  it('first-line accuracy compares the first line with the first key', () => {
    expect(firstLineAccuracy(['B'], '[Answer] b')).toBe(1);
    expect(firstLineAccuracy(['B'], '[Answer]\nC\nB')).toBe(0);
    expect(firstLineAccuracy(['B'], '')).toBe(0);
  });

  it('SubEM is the share of keys found as whole lines', () => {
    // keys a b c d; lines a c x: 2 of 4.
    expect(subEm(['a', 'b', 'c', 'd'], '[Answer]\na\nc\nx')).toBe(0.5);
    // A key inside a longer line does not count.
    expect(subEm(['paris'], '[Answer] paris, france')).toBe(0);
  });

  it('F1 is over the sets of keys and lines', () => {
    // common 2, precision 2/4, recall 2/3: F1 = 4/7.
    expect(f1(['a', 'b', 'c'], '[Answer]\na\nb\nx\ny')).toBeCloseTo(4 / 7, 12);
    expect(f1(['a'], '[Answer]\nz')).toBe(0);
  });

  it('pairwise order counts key pairs kept in order over all predicted pairs', () => {
    // b a c d: only (a, b) is out of order, 5 of 6 pairs.
    expect(pairwiseOrder(['a', 'b', 'c', 'd'], '[Answer]\nb\na\nc\nd')).toBeCloseTo(5 / 6, 12);
    // An extra line: 6 right of C(5, 2) = 10.
    expect(pairwiseOrder(['a', 'b', 'c', 'd'], '[Answer]\na\nb\nc\nd\ne')).toBeCloseTo(0.6, 12);
    expect(pairwiseOrder(['a', 'b'], '[Answer]\na')).toBe(0);
  });

  it('NDCG uses relevance k - i over the first k lines', () => {
    // b a c: (2/log2 2 + 3/log2 3 + 1/log2 4) / (3 + 2/log2 3 + 1/2).
    expect(ndcg(['a', 'b', 'c'], '[Answer]\nb\na\nc')).toBeCloseTo(0.9224945116765986, 12);
    expect(ndcg(['a', 'b', 'c'], '[Answer]\na\nb\nc')).toBe(1);
  });

  it('NDCG credits a repeated top line once (a hostile answer cannot score as the right ranking)', () => {
    expect(ndcg(['a', 'b', 'c'], '[Answer]\na\na\na')).toBeCloseTo(0.6300059872618923, 12);
  });

  it('picks the metric per secondary task; T4 summaries are unscored', () => {
    expect(metricFor('T1.2 Key-Snippet Retrieval')).toBe('ndcg');
    expect(metricFor('T6.3 Global Frequency Analysis')).toBe('pairwise');
    expect(metricFor('T10.1 Large-Scale In-Context Rule Induction')).toBe('subem');
    expect(metricFor('T9.2 Localized Interface Change Detection')).toBe('f1');
    expect(metricFor('T11.2 Short-Range Reference Resolution & State Query')).toBe('accuracy');
    expect(scoreItem('T4.2 Query-Focused Summary', ['x'], 'x')).toBeUndefined();
    expect(scoreItem('T99.1 Unknown', ['x'], 'x')).toBeUndefined();
    expect(scoreItem('T3.2 Single-Hop Fact QA', ['B'], '[Answer] B')).toBe(1);
  });
});
