import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/util/sha256.js';
import { type FileServer, startFileServer } from '../../support/file-server.js';
import { writeLongBenchProFixture } from '../../support/longbench-pro-fixture.js';
import { runCli } from '../../support/run-built-cli.js';

const dir = resolve('.artifacts/cli-longbench');
let server: FileServer;
let body: Buffer;

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const source = join(dir, 'source.json');
  writeLongBenchProFixture(source);
  body = readFileSync(source);
  server = await startFileServer(body, { cutFirstAfter: 4000 }, '/datasets/lbp/longbench_pro.json');
});

afterAll(() => server.close());

describe('reclamo eval longbench-pro (CLI)', () => {
  it('downloads from a mirror URL (env), resumes after a cut, checks the hash; then stats and runs items', async () => {
    const data = join(dir, 'data');
    const env = {
      RECLAMO_LONGBENCH_PRO_URL: server.url,
      RECLAMO_LONGBENCH_PRO_SHA256: sha256Hex(body),
    };
    const cut = await runCli(['eval', 'longbench-pro', 'download', '--dir', data], {
      home: dir,
      env,
    });
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain('Run the same command again to resume');
    const resumed = await runCli(['eval', 'longbench-pro', 'download', '--dir', data], {
      home: dir,
      env,
    });
    expect(resumed.stderr).toContain('(checked)');
    expect(resumed.code).toBe(0);
    expect(server.ranges[1]).toMatch(/^bytes=\d+-$/);
    expect(readFileSync(join(data, 'longbench_pro.json')).equals(body)).toBe(true);
    expect(JSON.parse(readFileSync(join(data, 'longbench_pro.source.json'), 'utf8'))).toMatchObject(
      {
        url: server.url,
        sha256: sha256Hex(body),
      },
    );

    const stats = await runCli(
      [
        'eval',
        'longbench-pro',
        'stats',
        '--dir',
        data,
        '--split',
        'held-out',
        '--max-bucket',
        '16k',
      ],
      { home: dir },
    );
    expect(stats.code).toBe(0);
    expect(stats.stdout).toContain('60 items in 57 document groups; 0 refused by the exam list');
    expect(stats.stdout).toContain('| T3.2 | mc | held-out | 1 |');

    const out = join(dir, 'rows.json');
    const run = await runCli(
      [
        'eval',
        'longbench-pro',
        'run',
        '--dir',
        data,
        '--tasks',
        'T3',
        '--split',
        'held-out',
        '--profile',
        'scripted',
        '--modes',
        'plain',
        '--out',
        out,
      ],
      { home: dir },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('[1/2] T3.2 8k tokens item lb-00 plain:');
    const rows = JSON.parse(readFileSync(out, 'utf8')).rows;
    expect(rows.map((r: { item: string }) => r.item)).toEqual(['lb-00', 'lb-01']);
    expect(rows[0].tags).toMatchObject({ split: 'held-out', kind: 'mc', chance: 0.25 });
  });

  it('refuses a mirror whose hash differs, and names the flag', async () => {
    const data = join(dir, 'bad');
    const res = await runCli(
      [
        'eval',
        'longbench-pro',
        'download',
        '--dir',
        data,
        '--url',
        server.url,
        '--sha256',
        'a'.repeat(64),
      ],
      { home: dir },
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`has SHA-256 ${sha256Hex(body)}, not ${'a'.repeat(64)}`);
    expect(existsSync(join(data, 'longbench_pro.json'))).toBe(false);
  });

  it('says which flag is wrong for a bad split or bucket', async () => {
    const res = await runCli(['eval', 'longbench-pro', 'stats', '--dir', dir, '--split', 'test'], {
      home: dir,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'unknown split "test"; splits are practice, practice-dev, held-out',
    );
  });
});

describe('reclamo eval longbench-v2 (CLI)', () => {
  it('lists the real items', async () => {
    const res = await runCli(
      [
        'eval',
        'longbench-v2',
        '--dir',
        resolve('test/fixtures/longbench-v2-codeqa'),
        '--list',
        '--length',
        'long',
      ],
      { home: dir },
    );
    expect(res.code).toBe(0);
    expect(
      res.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(['66fa6702bb02136c067c6abb', '66fcf80dbb02136c067c928e']);
  });
});
