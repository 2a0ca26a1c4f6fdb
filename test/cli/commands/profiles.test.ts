import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { profilesCommand } from '../../../src/cli/commands/profiles.js';
import { ConfigError } from '../../../src/errors.js';
import { cleanEnv, SEED_STYLE } from '../../config/temp-files.js';

async function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  let out = '';
  const command = profilesCommand({ write: (text) => (out += text), env }).exitOverride();
  await command.parseAsync(args, { from: 'user' });
  return out;
}

describe('reclamo profiles', () => {
  it('lists every profile with its origin and marks the selected one', async () => {
    const out = await run([], cleanEnv({ RECLAMO_PROFILES: SEED_STYLE, RECLAMO_PROFILE: 'lab' }));
    expect(out).toContain(`user file: ${SEED_STYLE}`);
    expect(out).toMatch(/\* lab\s+user file/);
    expect(out).toMatch(/ {2}ollama\s+built-in, overridden by user file/);
    expect(out).toMatch(/ {2}anthropic\s+built-in/);
  });

  it('show prints the resolved profile with key sources and defaults, never a key', async () => {
    const env = cleanEnv({ RECLAMO_PROFILES: SEED_STYLE, PLANNER_KEY: 'sk-hidden-123' });
    const out = await run(['show', 'planner-8b'], env);
    expect(out).toContain('profile: planner-8b');
    expect(out).toContain('key = env PLANNER_KEY');
    expect(out).toContain('key = command secret-tool …');
    expect(out).toContain('max_iterations = 30  (prompt version default)');
    expect(out).not.toContain('sk-hidden-123');
    expect(out).not.toContain('lookup service reader');
    // lab-style explicit values are shown plainly, unset ones with their default.
    const lab = await run(['show', 'lab'], env);
    expect(lab).toContain('max_tokens = 6144\n');
    expect(lab).toContain('timeout = 900  (prompt version default)');
    expect(lab).toContain('max_subcalls_per_run = 80\n');
  });

  it('show --json carries the profile as loaded and the defaults of its prompt version', async () => {
    const out = await run(['show', 'ollama', '--json'], cleanEnv());
    const parsed = JSON.parse(out) as {
      profile: { run: object; root: { model: string } };
      promptDefaults: { version: string; maxIterations: number };
    };
    expect(parsed.profile.run).toEqual({});
    expect(parsed.profile.root.model).toBe('qwen3:8b');
    expect(parsed.promptDefaults).toMatchObject({ version: 'v0.2', maxIterations: 30 });
  });

  it('show with an unknown name raises a ConfigError (exit 2 in main)', async () => {
    await expect(run(['show', 'nope'], cleanEnv())).rejects.toBeInstanceOf(ConfigError);
  });
});

describe('reclamo profiles (built CLI)', () => {
  const cli = join(process.cwd(), 'dist/cli/main.js');

  it('exits 2 with the fix on a configuration error, and never prints the key', async () => {
    const env = cleanEnv({ PATH: process.env.PATH, RECLAMO_API_KEY: 'sk-cli-sentinel-42' });
    const error = await promisify(execFile)('node', [cli, 'profiles', 'show', 'olama'], {
      env,
    }).then(
      () => undefined,
      (e: unknown) => e as { code: number; stderr: string; stdout: string },
    );
    expect(error?.code).toBe(2);
    expect(error?.stderr).toContain('Did you mean "ollama"?');
    const ok = await promisify(execFile)('node', [cli, 'profiles', 'show', 'ollama'], { env });
    expect(ok.stdout).toContain('key = env RECLAMO_API_KEY');
    expect(ok.stdout + ok.stderr).not.toContain('sk-cli-sentinel-42');
  });
});
