import { describe, expect, it } from 'vitest';
import { describeProfile, loadProfile } from '../../src/config/index.js';
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
