/**
 * A missing or unusable Python is a configuration problem (exit 2, with the
 * interpreter tried and the fix), while a worker that breaks in the middle of
 * a run stays a run failure (exit 1). The built CLI as a child process, the
 * mock server, real interpreters and real files.
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockPolicy, MockServer } from '../../../src/testing/index.js';
import { startMockServer } from '../../../src/testing/index.js';
import { freshDir, needleFile } from '../../rlm/helpers.js';
import { type CliResult, runCli, writeMockProfile } from '../../support/run-built-cli.js';

const dir = freshDir('cli-run-python');
let server: MockServer;
let policy: MockPolicy = () => 'FINAL(unset)';

// A PATH with no python3 on it (node is started by its absolute path).
const NO_PYTHON_PATH = join(dir, 'empty-bin');
mkdirSync(NO_PYTHON_PATH, { recursive: true });

function profileFile(extra = ''): string {
  return writeMockProfile(dir, {
    baseUrl: server.url,
    apiKeyEnv: 'RECLAMO_TEST_KEY',
    settings: { concurrency: 2, context_tokens: 32768 },
    extra,
  });
}

function cli(args: string[], env: { profile?: string; path?: string } = {}): Promise<CliResult> {
  return runCli(args, {
    home: dir,
    profiles: env.profile ?? profileFile(),
    env: {
      ...(env.path === undefined ? {} : { PATH: env.path }),
      RECLAMO_TEST_KEY: 'sk-test-python-key',
    },
  });
}

const runArgs = (context: string) => [
  'run',
  '--profile',
  'mock',
  '--log-dir',
  join(dir, 'runs'),
  '--context',
  context,
  '-q',
  'Which line holds the passphrase?',
];

/** The fix every interpreter error ends with: the profile field, the flag and PATH. */
function expectFix(stderr: string): void {
  expect(stderr).toMatch(/python3 on PATH/);
  expect(stderr).toMatch(/`python = "\/usr\/bin\/python3"` in the profile/);
  expect(stderr).toMatch(/--python/);
}

beforeAll(async () => {
  server = await startMockServer({ policy: (r) => policy(r) });
});
afterAll(async () => {
  await server.close();
});

describe('reclamo run without a usable Python', () => {
  it('--python naming a missing file: exit 2, the path tried and the fix, no model call', async () => {
    const before = server.requests.length;
    const res = await cli([...runArgs(needleFile(dir)), '--python', join(dir, 'no', 'python3')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      `reclamo: Python was not found: \`${join(dir, 'no', 'python3')}\` does not exist.`,
    );
    expectFix(res.stderr);
    expect(res.stdout).toBe('');
    expect(server.requests.length).toBe(before);
  });

  it('no python3 on PATH: exit 2, naming python3 and PATH', async () => {
    const res = await cli(runArgs(needleFile(dir)), { path: NO_PYTHON_PATH });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('reclamo: Python was not found: `python3` is not on PATH.');
    expectFix(res.stderr);
  });

  it('the profile field `python` naming a Python that is too old: exit 2 with its version and path', async () => {
    const fake = join(dir, 'python3.8');
    writeFileSync(
      fake,
      `#!/bin/sh\necho '{"executable": "${fake}", "version": [3, 8, 10], "stdlib": ["/usr/lib"]}'\n`,
    );
    chmodSync(fake, 0o755);
    const res = await cli(runArgs(needleFile(dir)), {
      profile: profileFile(`python = "${fake}"`),
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      `Python 3.8.10 at ${fake} (from \`${fake}\`) is too old: reclamo needs Python 3.9 or later.`,
    );
    expectFix(res.stderr);
  });

  it('an interpreter that is not Python: exit 2', async () => {
    const fake = join(dir, 'not-python');
    writeFileSync(fake, '#!/bin/sh\necho hello\n');
    chmodSync(fake, 0o755);
    const res = await cli([...runArgs(needleFile(dir)), '--python', fake]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`\`${fake}\` did not answer like Python 3.9+ (got "hello\\n").`);
    expectFix(res.stderr);
  });

  it('a worker that breaks mid-run (cannot be relaunched) stays exit 1', async () => {
    const context = join(freshDir('cli-run-python-broken'), 'needle.txt');
    writeFileSync(context, 'line 0\nthe passphrase is tangerine-42\n');
    policy = (r) => {
      if (r.model !== 'root-model') return 'sub';
      // With the context file gone, the relaunch after this crash cannot load it.
      rmSync(context);
      return '```repl\nimport os\nos._exit(3)\n```';
    };
    const res = await cli(runArgs(context));
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/reclamo: The run stopped: .*Python worker did not start/);
    expect(res.stderr).toMatch(/sandbox_error/);
  });

  it('reclamo demo shares the path: exit 2 when python3 is not on PATH', async () => {
    const res = await cli(
      ['demo', '--lines', '100', '--tickets', '5', '--log-dir', join(dir, 'demo-runs')],
      { path: NO_PYTHON_PATH },
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('reclamo: Python was not found: `python3` is not on PATH.');
    expectFix(res.stderr);
  });
});
