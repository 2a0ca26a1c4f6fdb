import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { matchHash, normalizeForMatch } from '../../../src/evals/exam/normalize.js';
import {
  buildCatalog,
  type Catalog,
  filterItems,
} from '../../../src/evals/longbench-pro/catalog.js';
import { groupItems, groupingKey } from '../../../src/evals/longbench-pro/groups.js';
import { classifyItem } from '../../../src/evals/longbench-pro/kinds.js';
import { SPLITS, splitOf } from '../../../src/evals/longbench-pro/splits.js';
import { fixtureRecords, writeLongBenchProFixture } from '../../support/longbench-pro-fixture.js';

const dir = resolve('.artifacts/test/longbench-pro-catalog');
const file = join(dir, 'longbench_pro.json');
let catalog: Catalog;

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  writeLongBenchProFixture(file);
  catalog = await buildCatalog(file);
});

const byId = (id: string) => catalog.items.find((i) => i.id === id);

describe('LongBench Pro document groups and splits', () => {
  it('groups equal contexts, shared long lines (any case or spacing) and chains of them', () => {
    const group = byId('lb-00')?.group;
    expect(group).toBe('lb-00');
    // lb-01 has lb-00's context; lb-02 shares a long line with it; lb-03 one with lb-02.
    for (const id of ['lb-01', 'lb-02', 'lb-03']) expect(byId(id)?.group).toBe(group);
    // lb-04 and lb-05 share a line of 119 characters only: each is its own group.
    expect(byId('lb-04')?.group).toBe('lb-04');
    expect(byId('lb-05')?.group).toBe('lb-05');
  });

  it('puts every item of a group in one split', () => {
    const splitOfGroup = new Map<string, string>();
    for (const item of catalog.items) {
      const seen = splitOfGroup.get(item.group);
      if (seen !== undefined) expect(item.split).toBe(seen);
      splitOfGroup.set(item.group, item.split);
      expect(item.split).toBe(splitOf(item.group));
    }
    expect(new Set(catalog.items.map((i) => i.split))).toEqual(new Set(SPLITS));
  });

  it('is deterministic and does not depend on the order of the file', async () => {
    const reversed = join(dir, 'reversed.json');
    writeLongBenchProFixture(reversed, fixtureRecords().reverse());
    const again = await buildCatalog(reversed);
    const key = (c: Catalog) =>
      Object.fromEntries(c.items.map((i) => [i.id, `${i.group}/${i.split}`]));
    expect(key(again)).toEqual(key(catalog));
  });

  it('a group is named by its smallest id wherever its items sit', () => {
    const keys = [
      groupingKey('9', 'same text'),
      groupingKey('10', 'other'),
      groupingKey('100', 'same text'),
    ];
    const groups = groupItems(keys);
    expect(groups.get('100')).toBe('9');
    expect(groups.get('10')).toBe('10');
  });
});

describe('LongBench Pro kinds and chance', () => {
  it('tags mc, mc-multi and open items with the chance of a uniform guess', () => {
    expect(byId('lb-00')).toMatchObject({ kind: 'mc', chance: 0.25 });
    // Two letters in the key: any non-empty subset of four options, 1 in 15.
    expect(byId('lb-06')).toMatchObject({ kind: 'mc-multi', chance: 1 / 15 });
    // One letter, but the question allows several.
    expect(byId('lb-07')).toMatchObject({ kind: 'mc-multi' });
    expect(byId('lb-01')).toMatchObject({ kind: 'open', chance: 0 });
    // A letter the question does not list is not a choice.
    expect(classifyItem('A. x\nB. y', ['E']).kind).toBe('open');
  });

  it('marks T4 summaries unscored and leaves them out unless asked', () => {
    expect(byId('lb-08')).toMatchObject({ scored: false, metric: 'summary' });
    expect(filterItems(catalog.items, {}).some((i) => i.id === 'lb-08')).toBe(false);
    expect(
      filterItems(catalog.items, { includeUnscored: true }).some((i) => i.id === 'lb-08'),
    ).toBe(true);
  });

  it('filters by split, bucket and task', () => {
    const small = filterItems(catalog.items, { maxBucket: '16k' });
    expect(small.every((i) => i.bucket === '8k' || i.bucket === '16k')).toBe(true);
    expect(small.some((i) => i.id === 'lb-09')).toBe(false); // 32k
    const t3 = filterItems(catalog.items, { tasks: ['T3'] });
    expect(t3.map((i) => i.id).sort()).toEqual(['lb-00', 'lb-01', 'lb-06']);
    const heldOut = filterItems(catalog.items, { split: 'held-out' });
    expect(heldOut.every((i) => i.split === 'held-out')).toBe(true);
  });
});

describe('LongBench Pro exam exclusion', () => {
  it('normalises with NFKC, case folding and collapsed whitespace', () => {
    expect(normalizeForMatch('  Ｒoom\t7\n\nSTRASSE ')).toBe('room 7 strasse');
    expect(matchHash('Straße  Seven')).toBe(matchHash('STRASSE seven'));
  });

  it('refuses an item whose context or question matches the hash list, whatever its split', async () => {
    const records = fixtureRecords();
    const examDoc = records[10]?.context ?? '';
    const examQuestion = 'Which of the twelve departments has the most open tickets?';
    records[11] = {
      ...(records[11] as (typeof records)[number]),
      question_nonthinking: examQuestion,
    };
    const path = join(dir, 'exam.json');
    writeFileSync(path, JSON.stringify(records));
    const hashes = new Set([
      // The exam copies differ in case and spacing: the match is after normalising.
      matchHash(`  ${examDoc.toUpperCase().replace(/\n/g, '\r\n')} `),
      matchHash(examQuestion.toLowerCase()),
    ]);
    const loaded = await buildCatalog(path, { examHashes: hashes });
    const refused = Object.fromEntries(
      loaded.items.filter((i) => i.refused).map((i) => [i.id, i.refused]),
    );
    expect(refused).toEqual({ 'lb-10': 'context', 'lb-11': 'question' });
    const kept = filterItems(loaded.items, { includeUnscored: true });
    expect(kept.some((i) => i.id === 'lb-10' || i.id === 'lb-11')).toBe(false);
  });

  it('reports bad records by position and keeps the rest', async () => {
    const path = join(dir, 'bad.json');
    const records: unknown[] = fixtureRecords().slice(0, 3);
    records.splice(1, 0, { id: 'broken', context: 7 });
    records.push(records[0]);
    writeFileSync(path, JSON.stringify(records));
    const loaded = await buildCatalog(path);
    expect(loaded.items.map((i) => i.id)).toEqual(['lb-00', 'lb-01', 'lb-02']);
    expect(loaded.bad).toEqual([
      { index: 1, error: expect.stringContaining('context') },
      { index: 4, error: 'duplicate id lb-00' },
    ]);
  });
});
