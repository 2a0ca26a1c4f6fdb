import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../../src/evals/bench/bench.js';
import { readRowFile } from '../../../src/evals/bench/row-file.js';
import { summarizeRows } from '../../../src/evals/bench/summary.js';
import { type ScriptedBackend, startScriptedBackend } from '../../../src/evals/offline.js';
import { getTask } from '../../../src/evals/tasks/index.js';

const dir = join(process.cwd(), '.artifacts/bench-offline');
let backend: ScriptedBackend;

beforeAll(async () => {
  await rm(dir, { recursive: true, force: true });
  backend = await startScriptedBackend();
});
afterAll(() => backend.close());

describe('bench, offline with the scripted policies through the real harness', () => {
  it('runs a small grid, resumes after an interruption, and summarises it', async () => {
    const out = join(dir, 'grid.json');
    const grid = {
      profile: backend.profile,
      tasks: [getTask('needle'), getTask('oolong-lite')],
      sizes: { needle: [300, 5_000], 'oolong-lite': [40] },
      seeds: 2,
      modes: ['rlm', 'plain'] as const,
      out,
      logDir: join(dir, 'runs'),
    };
    // Interrupted after 5 of the 12 rows.
    const first = await runBench({ ...grid, modes: [...grid.modes], maxRows: 5 });
    expect(first.ran).toBe(5);
    expect((await readRowFile(out))?.rows).toHaveLength(5);

    const seen: string[] = [];
    const second = await runBench({
      ...grid,
      modes: [...grid.modes],
      resume: true,
      onRow: (row) => seen.push(`${row.task}:${row.size}:${row.seed}:${row.mode}`),
    });
    expect(second.skipped).toBe(5);
    expect(second.ran).toBe(7);
    expect(seen[0]).toBe('needle:5000:0:plain');
    const rows = second.rows;
    expect(rows).toHaveLength(12);

    const rlm = rows.filter((r) => r.mode === 'rlm');
    for (const row of rlm) {
      expect(row, `${row.task} ${row.size} ${row.seed}`).toMatchObject({
        status: 'ok',
        exact: true,
      });
      expect(existsSync(row.trajectory ?? '')).toBe(true);
      expect(row.turns).toBeGreaterThanOrEqual(2);
    }
    expect(rlm.filter((r) => r.task === 'oolong-lite').every((r) => (r.subcalls ?? 0) > 0)).toBe(
      true,
    );
    const unfit = rows.filter((r) => r.status === 'does_not_fit');
    expect(unfit.map((r) => `${r.task}:${r.size}:${r.mode}`)).toEqual([
      'needle:5000:plain',
      'needle:5000:plain',
    ]);
    const table = summarizeRows(rows);
    expect(table).toContain('| needle | 5,000 lines | rlm | 2/2 found (2 seeds) |');
    expect(table).toMatch(
      /\| needle \| 5,000 lines \| plain \| does not fit \(~\d+K tokens\) \(2 seeds\) \| – \| – \|/,
    );
    expect(table).toContain('| oolong-lite | 40 tickets | plain | exact 2/2 (2 seeds) |');
  });
});
