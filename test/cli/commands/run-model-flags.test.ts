/**
 * A model from flags: `reclamo run --base-url URL --model NAME` with no profile
 * file at all, and `run({ baseUrl, model, apiKey })` in code, against the mock
 * server on 127.0.0.1 with the real Python worker.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/rlm/run.js';
import type { MockPolicy, MockServer } from '../../../src/testing/index.js';
import { startMockServer } from '../../../src/testing/index.js';
import { freshDir, needleFile } from '../../rlm/helpers.js';
import { runCli } from '../../support/run-built-cli.js';

const KEY = 'sk-FLAGS-0b9e-never-log-me';
const dir = freshDir('cli-run-model-flags');
const context = needleFile(dir);
let server: MockServer;

// The root greps the context, a sub-call reads the line, then the root answers with it.
const policy: MockPolicy = (r) => {
  if (r.model === 'the-sub') return 'tangerine-42';
  const last = r.messages.at(-1)?.content ?? '';
  if (r.messages.length === 2) {
    return "```repl\nline = grep(context, 'passphrase')\nprint(llm_query('Which word? ' + line))\n```";
  }
  return `FINAL(${/tangerine-\d+/.exec(last)?.[0] ?? 'none'})`;
};

beforeAll(async () => {
  server = await startMockServer({ policy });
});
afterAll(() => server.close());

const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(
    ['run', '-c', context, '-q', 'Which passphrase?', '--log-dir', join(dir, 'runs'), ...args],
    {
      home: dir,
      env,
    },
  );

describe('reclamo run --base-url --model (no profile file)', () => {
  it('runs against the server and models the flags name, keyless on 127.0.0.1', async () => {
    server.requests.length = 0;
    const res = await cli([
      '--base-url',
      server.url,
      '--model',
      'the-root',
      '--sub-model',
      'the-sub',
    ]);
    expect(res.stderr).not.toContain('No profile selected');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('tangerine-42\n');
    const models = server.requests.map((r) => r.model);
    expect(models).toContain('the-root');
    expect(models).toContain('the-sub');
    expect(server.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
    const trajectory = /trajectory (\S+\.jsonl)/.exec(res.stderr)?.[1] ?? '';
    const metadata = JSON.parse(readFileSync(trajectory, 'utf8').split('\n')[0] ?? '{}');
    expect(metadata.profile.name).toBe('inline');
    expect(metadata.profile.settings.source).toBe('--base-url, --model, --sub-model');
  });

  it('--api-key-env sends the key from that variable, and it is nowhere else', async () => {
    server.requests.length = 0;
    const res = await cli(
      ['--base-url', server.url, '--model', 'the-root', '--api-key-env', 'MY_GPU_KEY'],
      { MY_GPU_KEY: KEY },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(server.requests.length).toBeGreaterThan(0);
    for (const r of server.requests) expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    const trajectory = /trajectory (\S+\.jsonl)/.exec(res.stderr)?.[1] ?? '';
    expect(readFileSync(trajectory, 'utf8')).not.toContain(KEY);
    expect(res.stdout + res.stderr).not.toContain(KEY);
  });

  it('--base-url without --model exits 2 naming --model, before any request', async () => {
    server.requests.length = 0;
    const res = await cli(['--base-url', server.url]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--base-url and --model name a model without a profile');
    expect(res.stderr).toContain('--model is missing');
    expect(server.requests).toHaveLength(0);
  });

  it('a bad --base-url or a key pasted into --api-key-env exits 2, the key not repeated', async () => {
    const url = await cli(['--base-url', 'localhost:8000', '--model', 'm']);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('--base-url');
    expect(url.stderr).toContain('expected an http:// or https:// URL');
    const pasted = await cli(['--base-url', server.url, '--model', 'm', '--api-key-env', KEY]);
    expect(pasted.code).toBe(2);
    expect(pasted.stderr).toContain('--api-key-env must be the NAME of an environment variable');
    expect(pasted.stderr).not.toContain(KEY);
  });

  it("--model with --profile replaces the profile's model (the RECLAMO_MODEL of one run)", async () => {
    server.requests.length = 0;
    const res = await cli(['--profile', 'openai-compatible', '--model', 'the-root'], {
      RECLAMO_BASE_URL: server.url,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(new Set(server.requests.map((r) => r.model))).toEqual(new Set(['the-root']));
  });
});

describe('run({ baseUrl, model, apiKey })', () => {
  it('needs no profile, sends the literal key, and writes it nowhere', async () => {
    server.requests.length = 0;
    const result = await run({
      query: 'Which passphrase?',
      context,
      baseUrl: server.url,
      model: 'the-root',
      subModel: 'the-sub',
      apiKey: KEY,
      logDir: join(dir, 'lib-runs'),
      env: {},
    });
    expect(result.answer).toBe('tangerine-42');
    for (const r of server.requests) expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(readFileSync(result.trajectoryPath, 'utf8')).not.toContain(KEY);
  });

  it('names the option in its message when the model is missing', async () => {
    await expect(
      run({ query: 'q', context, baseUrl: server.url, logDir: join(dir, 'lib-runs'), env: {} }),
    ).rejects.toThrow(/baseUrl and model name a model without a profile, and model is missing/);
  });
});
