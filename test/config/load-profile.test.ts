import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtInProfiles, listProfiles, loadProfile } from '../../src/config/index.js';
import { cleanEnv, SEED_STYLE, writeProfiles } from './temp-files.js';

describe('seed-style profile file', () => {
  it('loads a single-server profile with role tables inheriting the profile level', async () => {
    const lab = await loadProfile({ profile: 'lab', file: SEED_STYLE, env: cleanEnv() });
    expect(lab.source).toBe(SEED_STYLE);
    expect(lab.root).toEqual({
      baseUrl: 'http://lab.internal:8000/v1',
      api: 'openai',
      concurrency: 3,
      model: 'qwen3-32b',
      maxTokens: 6144,
      enableThinking: true,
      reasoningEffort: 'high',
      sampling: { temperature: 0.6, top_p: 0.95, top_k: 20, min_p: 0 },
      contextTokens: 65536,
    });
    expect(lab.sub).toMatchObject({
      baseUrl: 'http://lab.internal:8000/v1',
      concurrency: 3,
      model: 'qwen3-14b',
      maxTokens: 3072,
      enableThinking: false,
      sampling: { temperature: 0.7, top_p: 0.8, top_k: 20, presence_penalty: 1.5 },
    });
    expect(lab.run).toEqual({
      subcallChars: 15000,
      promptVersion: 'v0.2',
      maxSubcallsPerRun: 80,
      maxSubcallsPerExec: 20,
      execTimeout: 90,
      maxTimeout: 1200,
    });
  });

  it('gives each role of a split profile its own endpoint, key source and concurrency', async () => {
    const planner = await loadProfile({ profile: 'planner-8b', file: SEED_STYLE, env: cleanEnv() });
    expect(planner.root).toMatchObject({
      baseUrl: 'http://127.0.0.1:8081/v1',
      apiKeyEnv: 'PLANNER_KEY',
      concurrency: 1,
      contextTokens: 32768,
    });
    // The root's own api_key_env replaces the inherited command: one key source per role.
    expect(planner.root.apiKeyCmd).toBeUndefined();
    expect(planner.sub).toMatchObject({
      baseUrl: 'http://reader.internal:9000/v1',
      apiKeyCmd: 'secret-tool lookup service reader',
      concurrency: 2,
      model: 'reader-model',
    });
    expect(planner.sub.apiKeyEnv).toBeUndefined();
  });

  it('loads the upstream-planner profile with its run settings', async () => {
    const rlm = await loadProfile({ profile: 'rlm-qwen3-8b', file: SEED_STYLE, env: cleanEnv() });
    expect(rlm.run).toEqual({ plannerStyle: 'upstream-rlm-v0', outputTruncateChars: 20000 });
    expect(rlm.root.enableThinking).toBe(false);
    expect(rlm.root.model).toBe('rlm-qwen3-8b-placeholder');
  });

  it('overrides one field of a built-in and keeps the rest', async () => {
    const ollama = await loadProfile({ profile: 'ollama', file: SEED_STYLE, env: cleanEnv() });
    expect(ollama.source).toBe(`built-in + ${SEED_STYLE}`);
    expect(ollama.run.maxIterations).toBe(25);
    expect(ollama.root.baseUrl).toBe(builtInProfiles.ollama?.base_url);
    expect(ollama.root.sampling).toEqual(builtInProfiles.ollama?.root?.sampling);
  });
});

describe('merging over built-ins', () => {
  it('merges sampling field by field and replaces the key source as one setting', async () => {
    const file = writeProfiles(`
[profiles.vllm.root]
sampling = { temperature = 0.3 }

[profiles.openai]
api_key_cmd = "op read op://vault/openai"
`);
    const vllm = await loadProfile({ profile: 'vllm', file, env: cleanEnv() });
    expect(vllm.root.sampling).toEqual({ temperature: 0.3, top_p: 0.95, top_k: 20, min_p: 0 });
    const openai = await loadProfile({ profile: 'openai', file, env: cleanEnv() });
    expect(openai.root.apiKeyCmd).toBe('op read op://vault/openai');
    expect(openai.root.apiKeyEnv).toBeUndefined();
  });

  it('does not let one load change the built-ins seen by the next', async () => {
    const file = writeProfiles('[profiles.ollama.root]\nsampling = { temperature = 1.5 }\n');
    await loadProfile({ profile: 'ollama', file, env: cleanEnv() });
    const fresh = await loadProfile({ profile: 'ollama', env: cleanEnv() });
    expect(fresh.root.sampling.temperature).toBe(0.6);
  });

  it('resolves system_prompt_file relative to the profile file', async () => {
    const file = writeProfiles(
      '[profiles.mine]\nbase_url = "http://127.0.0.1:1/v1"\nmodel = "m"\nsystem_prompt_file = "prompts/sys.md"\n',
    );
    const mine = await loadProfile({ profile: 'mine', file, env: cleanEnv() });
    expect(mine.run.systemPromptFile).toBe(join(file, '..', 'prompts', 'sys.md'));
  });
});

describe('built-in profiles', () => {
  it.each(Object.keys(builtInProfiles))('%s resolves with no user file', async (name) => {
    const profile = await loadProfile({ profile: name, env: cleanEnv() });
    expect(profile.source).toBe('built-in');
    expect(profile.root.model).not.toBe('');
    expect(profile.root.contextTokens).toBeGreaterThan(0);
  });

  it('local servers need no key; hosted APIs read the usual variables', async () => {
    for (const name of ['llama-cpp', 'ollama', 'vllm', 'openai-compatible']) {
      const profile = await loadProfile({ profile: name, env: cleanEnv() });
      expect(profile.root.apiKeyEnv ?? profile.root.apiKeyCmd).toBeUndefined();
      expect(new URL(profile.root.baseUrl).hostname).toBe('127.0.0.1');
    }
    const openai = await loadProfile({ profile: 'openai', env: cleanEnv() });
    expect([openai.root.apiKeyEnv, openai.sub.apiKeyEnv]).toEqual([
      'OPENAI_API_KEY',
      'OPENAI_API_KEY',
    ]);
    const anthropic = await loadProfile({ profile: 'anthropic', env: cleanEnv() });
    expect(anthropic.root).toMatchObject({ api: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY' });
    expect(anthropic.sub.api).toBe('anthropic');
  });
});

describe('environment overrides', () => {
  it('RECLAMO_BASE_URL replaces every role base_url, per-role ones too', async () => {
    const env = cleanEnv({ RECLAMO_BASE_URL: 'http://127.0.0.1:9999/v1', RECLAMO_API_KEY: 'k' });
    const file = writeProfiles(`
[profiles.split]
base_url = "http://a.internal/v1"
model = "m"
concurrency = 2
[profiles.split.root]
base_url = "http://b.internal/v1"
`);
    const split = await loadProfile({ profile: 'split', file, env });
    expect(split.root.baseUrl).toBe('http://127.0.0.1:9999/v1');
    expect(split.sub.baseUrl).toBe('http://127.0.0.1:9999/v1');
    expect(split.source).toContain('env RECLAMO_BASE_URL, RECLAMO_API_KEY');
  });

  it('RECLAMO_MODEL sets both roles', async () => {
    const profile = await loadProfile({
      profile: 'anthropic',
      env: cleanEnv({ RECLAMO_MODEL: 'x-model' }),
    });
    expect([profile.root.model, profile.sub.model]).toEqual(['x-model', 'x-model']);
  });

  it('RECLAMO_API_KEY becomes a key source, never a copied value', async () => {
    const secret = 'sk-sentinel-5d1c0a7e';
    const file = writeProfiles(`
[profiles.remote]
base_url = "http://remote.internal/v1"
model = "m"
api_key_cmd = "pass remote"
`);
    const profile = await loadProfile({
      profile: 'remote',
      file,
      env: cleanEnv({ RECLAMO_API_KEY: secret }),
    });
    expect(profile.root.apiKeyEnv).toBe('RECLAMO_API_KEY');
    expect(profile.root.apiKeyCmd).toBeUndefined();
    expect(profile.sub.apiKeyEnv).toBe('RECLAMO_API_KEY');
    expect(JSON.stringify(profile)).not.toContain(secret);
  });

  it('empty variables count as unset', async () => {
    const env = cleanEnv({ RECLAMO_BASE_URL: '', RECLAMO_MODEL: '', RECLAMO_API_KEY: '' });
    const profile = await loadProfile({ profile: 'openai', env });
    expect(profile.source).toBe('built-in');
    expect(profile.root.apiKeyEnv).toBe('OPENAI_API_KEY');
  });
});

describe('which profile', () => {
  const file = () =>
    writeProfiles(
      '[profiles.default]\nbase_url = "http://127.0.0.1:1/v1"\nmodel = "default-model"\n',
    );

  it('takes the explicit option first', async () => {
    const env = cleanEnv({ RECLAMO_PROFILE: 'vllm' });
    expect((await loadProfile({ profile: 'ollama', file: file(), env })).name).toBe('ollama');
  });

  it('then RECLAMO_PROFILE', async () => {
    const env = cleanEnv({ RECLAMO_PROFILE: 'vllm' });
    expect((await loadProfile({ file: file(), env })).name).toBe('vllm');
  });

  it('then a profile named default in the user file', async () => {
    const profile = await loadProfile({ file: file(), env: cleanEnv() });
    expect(profile.name).toBe('default');
    expect(profile.root.model).toBe('default-model');
  });

  it('reads RECLAMO_PROFILES, else ~/.config/reclamo/profiles.toml', async () => {
    const named = await loadProfile({ env: cleanEnv({ RECLAMO_PROFILES: file() }) });
    expect(named.name).toBe('default');
    const env = cleanEnv();
    const dir = join(env.HOME!, '.config', 'reclamo');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'profiles.toml'),
      '[profiles.default]\nbase_url = "http://127.0.0.1:2/v1"\nmodel = "home"\n',
    );
    const home = await loadProfile({ env });
    expect(home.root.model).toBe('home');
    expect(home.source).toBe(join(dir, 'profiles.toml'));
  });
});

describe('listProfiles', () => {
  it('lists built-ins and user profiles with their origin and the default selection', async () => {
    const list = await listProfiles({
      file: SEED_STYLE,
      env: cleanEnv({ RECLAMO_PROFILE: 'lab' }),
    });
    const origins = Object.fromEntries(list.profiles.map((p) => [p.name, p.origin]));
    expect(origins).toMatchObject({
      ollama: 'built-in, overridden by user file',
      vllm: 'built-in',
      lab: 'user file',
      'planner-8b': 'user file',
    });
    expect(list.selected).toBe('lab');
    expect(list.file).toEqual({ path: SEED_STYLE, exists: true });
  });

  it('reports a missing default user file without failing', async () => {
    const list = await listProfiles({ env: cleanEnv() });
    expect(list.file.exists).toBe(false);
    expect(list.selected).toBeUndefined();
    expect(list.profiles.map((p) => p.name)).toEqual(Object.keys(builtInProfiles));
  });
});
