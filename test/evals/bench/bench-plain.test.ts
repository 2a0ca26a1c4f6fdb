import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../../src/evals/bench/bench.js';
import { readRowFile } from '../../../src/evals/bench/row-file.js';
import { type ScriptedBackend, startScriptedBackend } from '../../../src/evals/offline.js';
import { getTask } from '../../../src/evals/tasks/index.js';

const dir = join(process.cwd(), '.artifacts/bench-plain');
let backend: ScriptedBackend;

beforeAll(async () => {
  await rm(dir, { recursive: true, force: true });
  backend = await startScriptedBackend();
});
afterAll(() => backend.close());

describe('bench plain modes, offline', () => {
  it('sends a prompt that fits and records one that does not without sending it', async () => {
    const out = join(dir, 'fit.json');
    const before = backend.requests();
    const result = await runBench({
      profile: backend.profile,
      tasks: [getTask('needle')],
      sizes: { needle: [200, 5_000] },
      seeds: 1,
      modes: ['plain', 'plain-nothink'],
      out,
    });
    const [small, smallNothink, large, largeNothink] = result.rows;
    expect(small).toMatchObject({
      size: 200,
      status: 'ok',
      exact: true,
      summary: 'found',
      mode: 'plain',
    });
    expect(smallNothink).toMatchObject({ status: 'ok', mode: 'plain-nothink' });
    expect(large).toMatchObject({
      size: 5_000,
      status: 'does_not_fit',
      usableTokens: 32_768 - 4_096,
    });
    expect(large?.promptTokens).toBeGreaterThan(60_000);
    expect(largeNothink?.status).toBe('does_not_fit');
    // Two plain calls went out (the two that fit), one request each: never best-of-several.
    expect(backend.requests() - before).toBe(2);
    expect((await readRowFile(out))?.rows).toHaveLength(4);
  });

  it('refuses to overwrite a row file without resume', async () => {
    await expect(
      runBench({
        profile: backend.profile,
        tasks: [getTask('needle')],
        sizes: { needle: [200] },
        modes: ['plain'],
        out: join(dir, 'fit.json'),
      }),
    ).rejects.toThrow(/already holds 4 rows.*--resume/);
  });
});
