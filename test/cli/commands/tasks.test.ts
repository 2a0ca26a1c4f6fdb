import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = join(process.cwd(), 'dist/cli/main.js');
const artifacts = join(process.cwd(), '.artifacts/cli-tasks');

describe('reclamo tasks dump', () => {
  it('prints the truth as JSON and the context as text, with no model', async () => {
    const truth = await run('node', [cli, 'tasks', 'dump', 'needle', '--size', '1000', '--truth']);
    const parsed = JSON.parse(truth.stdout) as {
      task: string;
      truth: { passphrase: string; line: number };
    };
    expect(parsed.task).toBe('needle');
    const context = await run('node', [cli, 'tasks', 'dump', 'needle', '--size', '1000'], {
      maxBuffer: 1 << 24,
    });
    const lines = context.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1000);
    expect(lines[parsed.truth.line]).toContain(parsed.truth.passphrase);
  });

  it('writes a dict context as a directory with --out', async () => {
    await mkdir(artifacts, { recursive: true });
    const out = join(artifacts, 'nested');
    await run('node', [cli, 'tasks', 'dump', 'nested', '--size', '3', '--seed', '2', '--out', out]);
    const names = await readdir(out);
    expect(names).toHaveLength(3);
    expect((await readFile(join(out, names[0] as string), 'utf8')).length).toBeGreaterThan(1000);
  });

  it('names the known tasks when given an unknown one', async () => {
    await expect(run('node', [cli, 'tasks', 'dump', 'haystack'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/unknown task "haystack"; built-in tasks are needle/),
    });
  });
});
