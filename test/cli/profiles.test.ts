import { describe, expect, it } from 'vitest';
import { profilesCommand } from '../../src/cli/commands/profiles.js';
import { ConfigError } from '../../src/errors.js';
import { cleanEnv, SEED_STYLE } from '../config/temp-files.js';

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
  });

  it('show --json carries the profile as loaded and as effective', async () => {
    const out = await run(['show', 'ollama', '--json'], cleanEnv());
    const parsed = JSON.parse(out) as {
      profile: { run: object };
      effective: { run: { maxIterations: number } };
    };
    expect(parsed.profile.run).toEqual({});
    expect(parsed.effective.run.maxIterations).toBe(30);
  });

  it('show with an unknown name raises a ConfigError (exit 2 in main)', async () => {
    await expect(run(['show', 'nope'], cleanEnv())).rejects.toBeInstanceOf(ConfigError);
  });
});
