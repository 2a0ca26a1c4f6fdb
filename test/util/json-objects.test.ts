import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonObjects } from '../../src/util/json-objects.js';

const dir = resolve('.artifacts/test/json-objects');

async function read(text: string, chunk: number) {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `f-${chunk}.json`);
  writeFileSync(path, text);
  const out = [];
  for await (const entry of readJsonObjects(path, chunk)) out.push(entry);
  return out;
}

describe('readJsonObjects', () => {
  const objects = [
    { id: 1, text: 'braces } { ] [ and "quotes" and \\ backslashes' },
    { id: 2, nested: { list: [1, { deep: '}' }] }, zh: '港口委员会' },
    { id: 3, text: '' },
  ];

  it('reads an array of objects, whatever the read size (objects and characters cut across reads)', async () => {
    const text = `[\n${objects.map((o) => JSON.stringify(o)).join(',\n')}\n]\n`;
    for (const chunk of [1, 2, 3, 7, 64, 1 << 20]) {
      const entries = await read(text, chunk);
      expect(entries).toEqual(objects.map((value, index) => ({ index, ok: true, value })));
    }
  });

  it('reads JSON lines too', async () => {
    const entries = await read(objects.map((o) => JSON.stringify(o)).join('\n'), 5);
    expect(entries.map((e) => e.ok && e.value)).toEqual(objects);
  });

  it('reports a malformed object, stray text, and a file cut short', async () => {
    const entries = await read('[{"a": 1}, {"b": tru}, {"c": 3}]', 4);
    expect(entries[1]).toMatchObject({ index: 1, ok: false });
    expect(entries[2]).toEqual({ index: 2, ok: true, value: { c: 3 } });
    expect(await read('[{"a": 1}, 7]', 4)).toEqual([
      { index: 0, ok: true, value: { a: 1 } },
      { index: 1, ok: false, error: 'unexpected "7" between objects' },
    ]);
    const cut = await read('[{"a": 1}, {"b": "unfinished', 4);
    expect(cut[1]).toEqual({
      index: 1,
      ok: false,
      error: 'the file ends inside an object (cut short?)',
    });
  });
});
