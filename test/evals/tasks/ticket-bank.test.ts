import { describe, expect, it } from 'vitest';
import { TaskGenerationError } from '../../../src/evals/errors.js';
import { getTask } from '../../../src/evals/tasks/index.js';
import type { OolongTruth } from '../../../src/evals/tasks/oolong-lite.js';
import {
  assertParaphrase,
  CATEGORIES,
  CATEGORY_WORDS,
  COMPLAINTS,
  categoryOfText,
} from '../../../src/evals/tasks/ticket-bank.js';

describe('the paraphrase rule', () => {
  it('throws when a ticket names its own category', () => {
    expect(() => assertParaphrase('My invoice is wrong again.', 'billing', 'ticket T1')).toThrow(
      TaskGenerationError,
    );
    expect(() => assertParaphrase('Please CANCEL my plan.', 'cancellation', 'ticket T2')).toThrow(
      /ticket T2 \(cancellation\) contains its category's word "cancel"/,
    );
    expect(() =>
      assertParaphrase('Please stop my plan.', 'cancellation', 'ticket T3'),
    ).not.toThrow();
  });

  it('holds for every generated oolong-lite ticket over many seeds', () => {
    for (let seed = 0; seed < 8; seed++) {
      const instance = getTask('oolong-lite').generate({ size: 300, seed });
      if (instance.context.kind !== 'text') throw new Error('oolong-lite context must be text');
      const { labels } = instance.truth as OolongTruth;
      for (const line of instance.context.chunks.join('').trim().split('\n')) {
        const id = line.slice(1, 7);
        const category = labels[id];
        expect(category).toBeDefined();
        for (const word of CATEGORY_WORDS[category as (typeof CATEGORIES)[number]]) {
          expect(line.toLowerCase()).not.toContain(word);
        }
        // The hidden key and the text agree: the complaint sentence decides the label.
        expect(categoryOfText(line)).toBe(category);
      }
    }
  });

  it('every complaint is unique to one category', () => {
    const all = CATEGORIES.flatMap((c) => COMPLAINTS[c]);
    expect(new Set(all).size).toBe(all.length);
  });
});
