import { describe, expect, it } from 'vitest';
import { applyVersionDefaults, describeProfile, loadProfile } from '../../src/config/index.js';
import { cleanEnv, SEED_STYLE, writeProfiles } from './temp-files.js';

describe('describeProfile', () => {
  it('keeps where each key comes from but not a command argument or a key', async () => {
    const secret = 'sk-sentinel-0b8e';
    const file = writeProfiles(`
[profiles.p]
base_url = "http://127.0.0.1:1/v1?token=${secret}"
model = "m"
api_key_cmd = "echo ${secret}"
`);
    const profile = await loadProfile({ profile: 'p', file, env: cleanEnv() });
    const described = describeProfile(profile);
    expect(described.root.key).toEqual({ kind: 'command', program: 'echo' });
    expect(described.root.baseUrl).toBe('http://127.0.0.1:1/v1');
    expect(JSON.stringify(described)).not.toContain(secret);
    expect(described.root).not.toHaveProperty('apiKeyCmd');
  });

  it('names the variable for env keys, including RECLAMO_API_KEY', async () => {
    const env = cleanEnv({ RECLAMO_API_KEY: 'sk-never-shown' });
    const described = describeProfile(
      await loadProfile({ profile: 'planner-8b', file: SEED_STYLE, env }),
    );
    expect(described.root.key).toEqual({ kind: 'env', variable: 'RECLAMO_API_KEY' });
    expect(JSON.stringify(described)).not.toContain('sk-never-shown');
    const local = describeProfile(await loadProfile({ profile: 'ollama', env: cleanEnv() }));
    expect(local.sub.key).toEqual({ kind: 'none' });
  });
});

describe('applyVersionDefaults', () => {
  it('fills unset fields from v0.2 and keeps set ones', async () => {
    const lab = applyVersionDefaults(
      await loadProfile({ profile: 'lab', file: SEED_STYLE, env: cleanEnv() }),
    );
    expect(lab.run).toMatchObject({
      maxIterations: 30,
      outputTruncateChars: 20000,
      maxSubcallsPerRun: 80,
    });
    expect(lab.root).toMatchObject({ maxTokens: 6144, timeoutSeconds: 900 });
  });

  it('v0.1 restores the old values; root cap follows thinking', async () => {
    const file = writeProfiles(`
[profiles.old]
base_url = "http://127.0.0.1:1/v1"
model = "m"
prompt_version = "v0.1"
[profiles.new]
base_url = "http://127.0.0.1:1/v1"
model = "m"
[profiles.new.root]
enable_thinking = false
`);
    const old = applyVersionDefaults(await loadProfile({ profile: 'old', file, env: cleanEnv() }));
    expect(old.run).toMatchObject({
      maxIterations: 20,
      outputTruncateChars: 2000,
      maxTimeout: 1800,
    });
    expect([old.root.maxTokens, old.sub.maxTokens, old.sub.timeoutSeconds]).toEqual([
      4096, 2048, 300,
    ]);
    const plain = applyVersionDefaults(
      await loadProfile({ profile: 'new', file, env: cleanEnv() }),
    );
    expect([plain.root.maxTokens, plain.sub.maxTokens]).toEqual([4096, 4096]);
  });
});
