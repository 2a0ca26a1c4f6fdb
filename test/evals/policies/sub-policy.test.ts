import { describe, expect, it } from 'vitest';
import { contextText } from '../../../src/evals/context-file.js';
import { plainMessages } from '../../../src/evals/plain-prompt.js';
import { answerPlain } from '../../../src/evals/policies/plain-reader.js';
import { LABEL_INSTRUCTION } from '../../../src/evals/policies/reader.js';
import { createSubPolicy } from '../../../src/evals/policies/sub-policy.js';
import { getTask } from '../../../src/evals/tasks/index.js';
import type { OolongTruth } from '../../../src/evals/tasks/oolong-lite.js';
import type { MockReply } from '../../../src/testing/mock-policy.js';
import { request } from './helpers.js';

function batch(size: number): { prompt: string; truth: OolongTruth } {
  const instance = getTask('oolong-lite').generate({ size, seed: 1 });
  return {
    prompt: `${LABEL_INSTRUCTION}\n\n${contextText(instance.context)}`,
    truth: instance.truth as OolongTruth,
  };
}

async function labels(prompt: string, errorRate: number): Promise<Map<string, string>> {
  const policy = createSubPolicy({ errorRate });
  const out = (await policy(
    request([{ role: 'user', content: prompt }], 'scripted-sub'),
  )) as MockReply;
  return new Map(
    (out.content ?? '').split('\n').map((line) => line.split(': ') as [string, string]),
  );
}

describe('scripted sub policy (the reader)', () => {
  it('labels exactly the tickets it was sent, from the answer key', async () => {
    const { prompt, truth } = batch(200);
    const got = await labels(prompt, 0);
    expect(got.size).toBe(200);
    for (const [id, category] of Object.entries(truth.labels)) expect(got.get(id)).toBe(category);
    // A slice of the batch gets labels for that slice only.
    const lines = prompt.split('\n');
    const part = await labels([lines[0], '', ...lines.slice(10, 15)].join('\n'), 0);
    expect([...part.keys()]).toEqual(['T00009', 'T00010', 'T00011', 'T00012', 'T00013']);
  });

  it('gets about the configured share of labels wrong, the same ones each time', async () => {
    const { prompt, truth } = batch(1000);
    const got = await labels(prompt, 0.2);
    const wrong = Object.entries(truth.labels).filter(([id, c]) => got.get(id) !== c).length;
    expect(wrong).toBeGreaterThan(120);
    expect(wrong).toBeLessThan(280);
    expect(await labels(prompt, 0.2)).toEqual(got);
  });

  it('declines requests that are not a labelling batch', async () => {
    const got = await createSubPolicy()(
      request([{ role: 'user', content: 'Summarise this.' }], 'scripted-sub'),
    );
    expect((got as MockReply).content).toMatch(/only labels support tickets/);
  });
});

describe('scripted plain reader', () => {
  it('answers each task exactly from the whole document when it makes no reading errors', () => {
    for (const [name, size] of [
      ['needle', 2_000],
      ['oolong-lite', 100],
      ['longdoc-qa', 40],
      ['nested', 4],
    ] as const) {
      const instance = getTask(name).generate({ size, seed: 3 });
      const messages = plainMessages(contextText(instance.context), instance.question);
      const answer = answerPlain(request(messages), {});
      expect(instance.score(answer), `${name}: ${answer}`).toMatchObject({ exact: true });
    }
  });
});
