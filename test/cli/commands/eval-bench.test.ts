import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrajectory } from '../../../src/trace/reader.js';
import { type CliResult, runCli } from '../../support/run-built-cli.js';

const dir = join(process.cwd(), '.artifacts/cli-eval');

/** Runs the built CLI; like execFile, it rejects on a non-zero exit with the code and stderr. */
async function run(args: string[]): Promise<CliResult> {
  const res = await runCli(args, { home: dir });
  if (res.code !== 0) throw Object.assign(new Error(`exit ${res.code}: ${res.stderr}`), res);
  return res;
}

describe('reclamo eval and bench (CLI, offline)', () => {
  it('runs a user task module through rlm and plain and prints the summary', async () => {
    await rm(dir, { recursive: true, force: true });
    await mkdir(join(dir, 'tasks'), { recursive: true });
    // Phrased like the built-in needle question, so the scripted root knows how to search it.
    await writeFile(
      join(dir, 'tasks', 'vault.mjs'),
      `export const sizes = [400];
export const question = 'Exactly one line states the current secret passphrase. What is it? Answer with the passphrase only.';
export function generate({ size, seed }) {
  const lines = Array.from({ length: size }, (_, i) => 'row ' + i + ' nothing here');
  const code = 'vault-' + (1000 + seed * 7);
  lines[(seed * 31) % size] = 'The secret passphrase is: ' + code;
  return { context: lines.join('\\n'), truth: code };
}
export function score(answer, truth) { return answer.trim() === truth; }
`,
    );
    const out = join(dir, 'rows.json');
    const { stdout, stderr } = await run([
      'eval',
      '--tasks',
      join(dir, 'tasks'),
      '--profile',
      'scripted',
      '--seeds',
      '2',
      '--out',
      out,
      '--log-dir',
      join(dir, 'runs'),
    ]);
    expect(stderr).toContain('[4/4] vault 400 size seed 1 plain: right');
    expect(stdout).toContain('| vault | 400 size | rlm | exact 2/2 (2 seeds) |');
    expect(stdout).toContain('| vault | 400 size | plain | exact 2/2 (2 seeds) |');
    expect(stdout).toContain('scripted policies');
    const rows = JSON.parse(await readFile(out, 'utf8')).rows as { answer: string }[];
    expect(rows.map((r) => r.answer)).toEqual([
      'vault-1000',
      'vault-1000',
      'vault-1007',
      'vault-1007',
    ]);

    const summary = await run(['bench', '--summary-only', out]);
    expect(summary.stdout).toContain('| vault | 400 size | rlm | exact 2/2 (2 seeds) |');
  });

  it('bench passes --compaction-threshold-pct and --hard-ceiling-pct to its rlm rows', async () => {
    const out = join(dir, 'compaction-rows.json');
    await rm(out, { force: true });
    await run([
      'bench',
      '--profile',
      'scripted',
      '--tasks',
      'needle',
      '--sizes',
      '300',
      '--modes',
      'rlm',
      '--compaction-threshold-pct',
      '0.3',
      '--hard-ceiling-pct',
      '0.6',
      '--out',
      out,
      '--log-dir',
      join(dir, 'compaction-runs'),
    ]);
    const rows = JSON.parse(await readFile(out, 'utf8')).rows as { trajectory: string }[];
    expect(rows).toHaveLength(1);
    const { events } = await readTrajectory(rows[0]?.trajectory ?? '');
    const metadata = events.find((e) => e.type === 'metadata');
    expect(metadata?.type === 'metadata' && metadata.contextBudget).toMatchObject({
      compactionThresholdPct: 0.3,
      hardCeilingPct: 0.6,
    });
    await expect(
      run(['bench', '--profile', 'scripted', '--hard-ceiling-pct', '2']),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--hard-ceiling-pct .*above 0 and at most 1/),
    });
  });

  it('rejects an unknown mode and an existing row file without --resume, with exit code 2', async () => {
    await expect(
      run([
        'bench',
        '--profile',
        'scripted',
        '--modes',
        'rlm,best-of-2',
        '--out',
        join(dir, 'x.json'),
      ]),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown mode "best-of-2"/) });
    await expect(
      run(['bench', '--profile', 'scripted', '--tasks', 'needle', '--out', join(dir, 'rows.json')]),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/already holds 4 rows/) });
  });
});
