import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResolvedProfile } from '../../../src/config/types.js';
import { extractChoice } from '../../../src/evals/longbench-v2/choice.js';
import { parseItemMarkdown } from '../../../src/evals/longbench-v2/item.js';
import {
  loadLongBenchV2,
  runLongBenchV2,
  selectItems,
  v2Instance,
} from '../../../src/evals/longbench-v2/load.js';
import { ScriptedModel } from '../../../src/testing/index.js';

/** Three real LongBench v2 items (code repository QA); see the README beside them. */
const DATA = resolve('test/fixtures/longbench-v2-codeqa');
const dir = resolve('.artifacts/test/longbench-v2');

const profile = (contextTokens: number): ResolvedProfile => {
  const role = {
    baseUrl: 'http://127.0.0.1:9/v1',
    api: 'openai' as const,
    concurrency: 1,
    model: 'root-model',
    sampling: {},
    contextTokens,
    maxTokens: 1024,
  };
  return { name: 'test', source: 'test', root: role, sub: role, run: {} };
};

describe('LongBench v2 loader (markdown layout)', () => {
  it('reads the three real items with their metadata, choices and answers', async () => {
    const items = await loadLongBenchV2(DATA);
    expect(items.map((i) => [i.id, i.answer, i.length])).toEqual([
      ['66f3ad93821e116aacb2e29f', 'C', 'short'],
      ['66fa6702bb02136c067c6abb', 'B', 'long'],
      ['66fcf80dbb02136c067c928e', 'B', 'long'],
    ]);
    const first = items[0];
    expect(first?.domain).toBe('Code Repository Understanding');
    expect(first?.choices.C).toContain('tcp->shutdown_waiting');
    expect(selectItems(items, { domains: ['code'], length: 'long' })).toHaveLength(2);
    expect(selectItems(items, { domains: ['single-document'] })).toHaveLength(0);
    const instance = await v2Instance(first as NonNullable<typeof first>);
    expect(instance.question).toMatch(/^Regarding the statements/);
    expect(instance.question).toContain('\nD. Before terminating');
    expect(instance.context.kind === 'text' && instance.context.chunks[0]?.length).toBe(101_348);
    expect(instance.score('C').exact).toBe(true);
    expect(instance.score('The answer is (B).').summary).toBe('chose B');
  });

  it('names the file and the missing part of a malformed item', () => {
    expect(() => parseItemMarkdown('# Metadata\n- ID: x\n# Question\nq', 'bad.md', 'c')).toThrow(
      /bad\.md: no "# Choices", "# Answer" section/,
    );
    const noAnswer =
      '# Metadata\n- ID: x\n- Domain: d\n# Question\nq\n# Choices\n- A: 1\n- B: 2\n- C: 3\n- D: 4\n# Answer\nE';
    expect(() => parseItemMarkdown(noAnswer, 'e.md', 'c')).toThrow(/one of A, B, C, D, got "E"/);
  });

  it('scores by the exact choice letter, and only an unambiguous one', () => {
    expect(extractChoice('C')).toBe('C');
    expect(extractChoice(' (c) ')).toBeUndefined(); // lower case inside brackets is not a bare letter
    expect(extractChoice('c')).toBe('C');
    expect(extractChoice('**B**')).toBe('B');
    expect(extractChoice('B. Because the FIN is acknowledged first.')).toBe('B');
    expect(extractChoice('After reading the code, the correct answer is C.')).toBe('C');
    expect(extractChoice('Answer: (D)')).toBe('D');
    // A and B are discussed, but only one is given as the answer.
    expect(extractChoice('A and B are wrong; the answer is C')).toBe('C');
    // Hedged or several answers: no choice.
    expect(extractChoice('The answer is A or B')).toBeUndefined();
    expect(extractChoice('Answer: A. On second thought, the answer is D')).toBeUndefined();
    expect(extractChoice('A, B, C, D')).toBeUndefined();
    expect(extractChoice('A purpose of the code is shutdown')).toBeUndefined();
    expect(extractChoice('The answer is a bit unclear')).toBeUndefined();
    expect(extractChoice('')).toBeUndefined();
  });

  it('runs the items through a plain mode: one row per item, keyed by its id', async () => {
    const reader = new ScriptedModel({ replies: ['C', 'A', 'B'], modelId: 'root-model' });
    const result = await runLongBenchV2({
      dir: DATA,
      profile: profile(2_000_000),
      modes: ['plain'],
      plainModel: reader,
      out: join(dir, `plain-${process.pid}.json`),
    });
    expect(result.rows.map((r) => [r.item, r.exact, r.summary])).toEqual([
      ['66f3ad93821e116aacb2e29f', true, 'right'],
      ['66fa6702bb02136c067c6abb', false, 'chose A'],
      ['66fcf80dbb02136c067c928e', true, 'right'],
    ]);
    const prompt = reader.calls[0]?.messages[0]?.content ?? '';
    expect(prompt).toContain('tcp->shutdown_waiting');
    expect(prompt).not.toContain('# Answer');
  });

  it('records "does not fit" with the estimated size where the window is too small', async () => {
    const result = await runLongBenchV2({
      dir: DATA,
      select: { length: 'long' },
      profile: profile(32_768),
      modes: ['plain'],
      plainModel: new ScriptedModel({ replies: [] }),
      out: join(dir, `unfit-${process.pid}.json`),
    });
    expect(result.rows.map((r) => r.status)).toEqual(['does_not_fit', 'does_not_fit']);
    expect(result.rows[0]?.promptTokens).toBeGreaterThan(500_000);
  });
});
