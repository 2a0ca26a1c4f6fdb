import { describe, expect, it } from 'vitest';
import { getTask } from '../../../src/evals/tasks/index.js';
import type { LongdocTruth } from '../../../src/evals/tasks/longdoc-qa.js';
import type { NeedleTruth } from '../../../src/evals/tasks/needle.js';
import type { NestedTruth } from '../../../src/evals/tasks/nested.js';
import type { OolongTruth } from '../../../src/evals/tasks/oolong-lite.js';

describe('scorers', () => {
  it('needle: exact passphrase is found, tolerant of quotes and a full stop; others are not', () => {
    const instance = getTask('needle').generate({ size: 1_000, seed: 0 });
    const { passphrase } = instance.truth as NeedleTruth;
    expect(instance.score(passphrase)).toMatchObject({ exact: true, score: 1, summary: 'found' });
    expect(instance.score(` "${passphrase}". `).exact).toBe(true);
    expect(instance.score(`${passphrase}x`)).toMatchObject({ exact: false, summary: 'not found' });
    expect(instance.score('I could not find it').exact).toBe(false);
  });

  it('oolong-lite: the true counts are exact; one ticket moved is abs error 2', () => {
    const instance = getTask('oolong-lite').generate({ size: 120, seed: 2 });
    const { counts } = instance.truth as OolongTruth;
    expect(instance.score(JSON.stringify(counts))).toMatchObject({ exact: true, summary: 'exact' });
    // A Python dict repr, as FINAL_VAR of a dict prints, is read too.
    const repr = `{${Object.entries(counts)
      .map(([k, v]) => `'${k}': ${v}`)
      .join(', ')}}`;
    expect(instance.score(repr).exact).toBe(true);
    const wrong = { ...counts, billing: counts.billing + 1, shipping: counts.shipping - 1 };
    expect(instance.score(`Counts: ${JSON.stringify(wrong)}`)).toMatchObject({
      exact: false,
      summary: 'abs error 2',
    });
    expect(instance.score('about 24 each')).toMatchObject({ exact: false, score: 0 });
  });

  it('longdoc-qa: right cities score 3/3; one wrong city scores 2/3', () => {
    const instance = getTask('longdoc-qa').generate({ size: 40, seed: 5 });
    const { questions } = instance.truth as LongdocTruth;
    const right = questions.map((q) => `${q.project}: ${q.city}`).join('\n');
    expect(instance.score(right)).toMatchObject({ exact: true, summary: '3/3 questions' });
    const wrong = questions
      .map((q, i) => `${q.project}: ${i === 0 ? 'Atlantis' : q.city.toLowerCase()}`)
      .join('\n');
    expect(instance.score(wrong)).toMatchObject({ exact: false, summary: '2/3 questions' });
  });

  it('nested: true counts and top department are exact; an off-by-one and a wrong top are not', () => {
    const instance = getTask('nested').generate({ size: 6, seed: 1 });
    const truth = instance.truth as NestedTruth;
    const right = JSON.stringify({ counts: truth.counts, most: truth.most });
    expect(instance.score(right)).toMatchObject({
      exact: true,
      score: 1,
      summary: '6/6 counts, most right',
    });
    const [first] = Object.keys(truth.counts);
    const other = Object.keys(truth.counts).find((d) => d !== truth.most) as string;
    const counts = { ...truth.counts, [first as string]: (truth.counts[first as string] ?? 0) + 1 };
    const score = instance.score(JSON.stringify({ counts, most: other }));
    expect(score.exact).toBe(false);
    expect(score.summary).toBe('abs error 1 (5/6 exact), most wrong');
    expect(score.score).toBeCloseTo(5 / 7);
  });
});
