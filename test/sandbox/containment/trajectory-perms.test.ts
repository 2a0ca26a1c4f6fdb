/**
 * Class 9: trajectories readable by model code. An earlier run left a trajectory
 * holding a secret it printed; a later run's model code, in the same log folder,
 * tries to list and read every trajectory there (its own included). The folder
 * is 0700 and the files 0600 when reclamo creates them, so it can do neither.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONTAINED,
  containment,
  hostileRun,
  lastUserText,
  repl,
  serverForFile,
} from '../../support/hostile-run.js';

const OTHER_RUN_SECRET = `other-run-secret-${randomBytes(8).toString('hex')}`;
const logDir = resolve('.artifacts/containment/trajectory-perms-logs', 'nested', 'runs');

const SNOOP = repl(
  [
    'import os',
    'base = "{{LOGDIR}}"',
    'for d in (base, os.path.dirname(base)):',
    '    try:',
    '        print("LISTED", d, os.listdir(d))',
    '    except OSError as e:',
    '        print("DENIED listing", type(e).__name__)',
    'for name in KNOWN:',
    '    try:',
    '        print("READ", name, open(os.path.join(base, name)).read()[:200])',
    '    except OSError as e:',
    '        print("DENIED", name, type(e).__name__)',
  ].join('\n'),
);

const served = serverForFile();

describe('class 9, trajectory permissions', () => {
  it('keeps every trajectory of the log folder out of model code’s reach', async () => {
    const { rmSync } = await import('node:fs');
    rmSync(resolve('.artifacts/containment/trajectory-perms-logs'), {
      recursive: true,
      force: true,
    });
    const first = await hostileRun(served(), {
      name: 'trajectory-perms-a',
      logDir,
      flags: ['--sft'],
      context: { text: `the secret of the first run: ${OTHER_RUN_SECRET}\n` },
      boundMs: 30_000,
      root: (n) => (n === 1 ? repl('print(context)') : undefined),
    });
    expect(containment(first, 30_000)).toEqual(CONTAINED);
    // Every level reclamo made is 0700; every file it wrote 0600.
    for (const d of [logDir, join(logDir, '..')]) expect(statSync(d).mode & 0o777).toBe(0o700);
    const files = readdirSync(logDir);
    expect(files.some((f) => f.endsWith('.sft.jsonl'))).toBe(true);
    for (const f of files) expect(statSync(join(logDir, f)).mode & 0o777).toBe(0o600);

    const seen: string[] = [];
    const second = await hostileRun(served(), {
      name: 'trajectory-perms-b',
      logDir,
      boundMs: 30_000,
      root: (n, request) => {
        if (n === 1) return SNOOP.replace('KNOWN', JSON.stringify(readdirSync(logDir)));
        seen.push(lastUserText(request));
        return undefined;
      },
    });
    expect(containment(second, 30_000)).toEqual(CONTAINED);
    const out = seen[0] ?? '';
    expect(out).not.toMatch(/LISTED|READ/);
    expect(out.match(/DENIED listing PermissionError/g)).toHaveLength(2);
    expect(out.match(/DENIED \S+\.jsonl PermissionError/g)?.length).toBe(files.length + 1);
    for (const r of second.requests) expect(JSON.stringify(r.body)).not.toContain(OTHER_RUN_SECRET);
  });
});
