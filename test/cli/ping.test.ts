import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

const cli = resolve('dist/cli/main.js');
const dir = resolve('.artifacts/cli-ping');
const sentinel = 'sk-SENTINEL-ping-5f1e2d3c4b';
let good: MockServer;
let failing: MockServer;
let profiles: string;

function run(args: string[], extraEnv: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('RECLAMO_')) env[name] = value;
  Object.assign(env, { RECLAMO_PROFILES: profiles, HOME: dir }, extraEnv);
  // Async spawn: the mock servers live in this process and must keep answering.
  const child = spawn(process.execPath, [cli, 'ping', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.on('close', (code) => done({ code, stdout, stderr })),
  );
}

beforeAll(async () => {
  good = await startMockServer({
    models: ['mock-model'],
    policy: (r) =>
      (r.body.chat_template_kwargs as { enable_thinking?: boolean } | undefined)?.enable_thinking
        ? { content: '42', reasoning: 'adding', reasoningAs: 'think-tags' }
        : 'pong',
  });
  failing = await startMockServer({
    policy: (r) => ({
      fault: {
        kind: 'status',
        status: 401,
        body: `{"error":{"message":"rejected ${r.headers.authorization}"}}`,
      },
    }),
  });
  mkdirSync(dir, { recursive: true });
  profiles = join(dir, 'profiles.toml');
  writeFileSync(
    profiles,
    `[profiles.mock]
base_url = "${good.url}"
model = "mock-model"
concurrency = 2

[profiles.split]
base_url = "${good.url}"
model = "mock-model"

[profiles.split.root]
base_url = "${failing.url}"
api_key_env = "PING_TEST_KEY"

[profiles.nokey]
base_url = "https://models.example.invalid/v1"
api_key_env = "PING_TEST_UNSET_KEY"
model = "remote"
`,
  );
});

afterAll(async () => {
  await good.close();
  await failing.close();
});

describe('reclamo ping', () => {
  it('exits 0 and reports the endpoint under its base_url heading', async () => {
    const result = await run(['--profile', 'mock']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`base_url: ${good.url}`);
    expect(result.stdout).toContain('models: mock-model');
    expect(result.stdout).toMatch(
      /plain request: +ok in \d+ ms; tokens in \d+ \(cached 0\), out \d+; finish stop; reasoning no; reply "pong"/,
    );
    expect(result.stdout).toMatch(/thinking request: ok in \d+ ms;.*reasoning yes; reply "42"/);
    expect(result.stdout).toContain('all 1 endpoint(s) answered');
  });

  it('exits 1 when an endpoint fails, and never prints its key', async () => {
    const result = await run(['--profile', 'split'], { PING_TEST_KEY: sentinel });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`base_url: ${failing.url}`);
    expect(result.stdout).toContain(`base_url: ${good.url}`);
    expect(result.stdout).toMatch(/plain request: +FAILED after \d+ ms: .*HTTP 401/);
    expect(result.stdout).toContain('1 of 2 endpoint(s) failed');
    expect(failing.requests[0]?.headers.authorization).toBe(`Bearer ${sentinel}`);
    expect(`${result.stdout}${result.stderr}`).not.toContain('SENTINEL');
  });

  it('exits 2 when the key is missing', async () => {
    const result = await run(['--profile', 'nokey']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/PING_TEST_UNSET_KEY is not set/);
    expect(result.stdout).toBe('');
  });

  it('exits 2 for an unknown profile', async () => {
    const result = await run(['--profile', 'no-such-profile']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Unknown profile "no-such-profile"/);
  });
});
