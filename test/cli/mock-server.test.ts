import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const cli = resolve('dist/cli/main.js');
const dir = resolve('.artifacts/cli-mock-server');

function startCli(args: string[]) {
  const child = spawn(process.execPath, [cli, 'mock-server', ...args], {
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
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  const url = new Promise<string>((found, fail) => {
    child.stdout.on('data', () => {
      const match = /listening on (\S+)/.exec(stdout);
      if (match?.[1]) found(match[1]);
    });
    child.on('close', () => fail(new Error(`exited early: ${stderr}`)));
  });
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

describe('reclamo mock-server', () => {
  it('serves the policy file until SIGINT', async () => {
    mkdirSync(dir, { recursive: true });
    const policy = join(dir, 'policy.mjs');
    writeFileSync(
      policy,
      "export default (request) => ({ content: 'policy says ' + request.model });\n",
    );
    const run = startCli(['--policy', policy, '--port', '0', '--latency', '5', '--busy-wait']);
    const url = await run.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm7', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const reply = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(reply.choices[0]?.message.content).toBe('policy says m7');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });

  it('refuses a policy file without a default function (exit 2)', async () => {
    mkdirSync(dir, { recursive: true });
    const policy = join(dir, 'bad-policy.mjs');
    writeFileSync(policy, 'export const policy = 1;\n');
    const run = startCli(['--policy', policy]);
    run.url.catch(() => undefined);
    expect(await run.exited).toBe(2);
    expect(run.output().stderr).toMatch(/must export a function as default/);
  });
});
