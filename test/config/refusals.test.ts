import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors.js';
import { cleanEnv, writeProfiles } from './temp-files.js';

const SECRET = 'sk-live-7f3a9c2e1b';

/** Loads `text` as the user file and returns the ConfigError it must raise. */
async function refusal(text: string, profile = 'p', env: NodeJS.ProcessEnv = cleanEnv()) {
  const file = writeProfiles(text);
  const error = await loadProfile({ ...(profile ? { profile } : {}), file, env }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return { error: error as ConfigError, file };
}

const BASE = '[profiles.p]\nbase_url = "http://127.0.0.1:1/v1"\nmodel = "m"\n';

describe('refusals name the file, the key and the fix', () => {
  it('unknown key, with the closest valid one', async () => {
    const { error, file } = await refusal(`${BASE}[profiles.p.root]\nmax_tokns = 10\n`);
    expect(error.message).toContain(file);
    expect(error.message).toContain('unknown key `max_tokns` in [profiles.p.root]');
    expect(error.message).toContain('Did you mean `max_tokens`?');
    expect(error.file).toBe(file);
    expect(error.key).toBe('profiles.p.root.max_tokns');
  });

  it('unknown key with no close match lists the valid keys', async () => {
    const { error } = await refusal(`${BASE}sampling = { zzzzzzzz = 1 }\n`);
    expect(error.message).toContain('unknown key `zzzzzzzz` in [profiles.p.sampling]');
    expect(error.message).toContain('Valid keys there: temperature, top_p');
  });

  it('a run setting in a role table says to move it', async () => {
    const { error } = await refusal(`${BASE}[profiles.p.sub]\nmax_iterations = 3\n`);
    expect(error.message).toContain('`max_iterations` is a run setting');
    expect(error.message).toContain('move it to [profiles.p]');
  });

  it('a top-level table that is not under [profiles]', async () => {
    const { error } = await refusal('[lab]\nmodel = "m"\n');
    expect(error.message).toContain('unknown key `lab` in the top level');
    expect(error.message).toContain('[profiles.lab]');
  });

  it('wrong type, without echoing the value', async () => {
    const { error } = await refusal(`${BASE}concurrency = "${SECRET}"\n`);
    expect(error.message).toContain(
      '`profiles.p.concurrency` must be an integer, but the file gives a string',
    );
    expect(error.key).toBe('profiles.p.concurrency');
    expect(error.message).not.toContain(SECRET);
  });

  it('a float where an integer is needed', async () => {
    const { error } = await refusal(`${BASE}max_iterations = 2.5\n`);
    expect(error.message).toContain('must be an integer, but the file gives a float');
  });

  it('bad values: out of range, not in the allowed set', async () => {
    const range = await refusal(`${BASE}concurrency = 0\n`);
    expect(range.error.message).toContain(
      '`profiles.p.concurrency` is too small. Fix: use a value > 0',
    );
    const choice = await refusal(`${BASE}api = "${SECRET}"\n`);
    expect(choice.error.message).toContain('`profiles.p.api` has a value that is not allowed');
    expect(choice.error.message).toContain('"openai", "anthropic"');
    expect(choice.error.message).not.toContain(SECRET);
    const pct = await refusal(`${BASE}hard_ceiling_pct = 1.5\n`);
    expect(pct.error.message).toContain('<= 1');
  });

  it('a key pasted into api_key_env is refused and not echoed', async () => {
    const { error } = await refusal(`${BASE}api_key_env = "${SECRET}"\n`);
    expect(error.message).toContain(
      '`profiles.p.api_key_env` must be the NAME of an environment variable',
    );
    expect(error.message).not.toContain(SECRET);
  });

  it('a base_url carrying credentials is refused and not echoed', async () => {
    const { error } = await refusal(
      `[profiles.p]\nmodel = "m"\nbase_url = "http://user:${SECRET}@h/v1"\n`,
    );
    expect(error.message).toContain(
      '`profiles.p.base_url` must be an http:// or https:// URL without a user name',
    );
    expect(error.message).not.toContain(SECRET);
  });

  it('both key sources in one table', async () => {
    const { error } = await refusal(`${BASE}api_key_env = "K"\napi_key_cmd = "pass ${SECRET}"\n`);
    expect(error.message).toContain(
      '`profiles.p.api_key_cmd` cannot be set together with api_key_env',
    );
    expect(error.message).not.toContain(SECRET);
  });

  it('several problems are all listed', async () => {
    const { error } = await refusal(`${BASE}concurrency = "2"\nmodle = "x"\n`);
    expect(error.message).toMatch(/has 2 problems/);
    expect(error.message).toContain('concurrency');
    expect(error.message).toContain('`modle`');
  });

  it('TOML syntax error with its line, without the offending text', async () => {
    const { error, file } = await refusal(`${BASE}api_key_cmd = "echo ${SECRET}\nmodel = "x"\n`);
    expect(error.message).toContain(`${file}:4:`);
    expect(error.message).toContain('TOML syntax error');
    expect(error.message).toContain('Fix line 4');
    expect(error.message).not.toContain(SECRET);
  });

  it('unknown profile name lists the available ones and suggests the closest', async () => {
    const { error, file } = await refusal(BASE, 'olama');
    expect(error.message).toContain('Unknown profile "olama"');
    expect(error.message).toContain('Did you mean "ollama"?');
    expect(error.message).toContain(
      'llama-cpp, ollama, vllm, openai, anthropic, openai-compatible, p',
    );
    expect(error.message).toContain(file);
  });

  it('an unknown name from RECLAMO_PROFILE says where it came from', async () => {
    const { error } = await refusal(BASE, '', cleanEnv({ RECLAMO_PROFILE: 'vlm' }));
    expect(error.message).toContain('Unknown profile "vlm" (from RECLAMO_PROFILE)');
    expect(error.message).toContain('Did you mean "vllm"?');
  });

  it('roles sharing a base_url must agree on the key source', async () => {
    const { error, file } = await refusal(
      `${BASE}api_key_env = "A_KEY"\n[profiles.p.root]\napi_key_cmd = "pass ${SECRET}"\n`,
    );
    expect(error.message).toContain(file);
    expect(error.message).toContain('share http://127.0.0.1:1/v1');
    expect(error.message).toContain(
      'disagree on the key source (root: api_key_cmd, sub: env A_KEY)',
    );
    expect(error.message).not.toContain(SECRET);
  });

  it('two different key commands on one URL are refused without showing either', async () => {
    const { error } = await refusal(
      `${BASE}[profiles.p.root]\napi_key_cmd = "pass a-${SECRET}"\n[profiles.p.sub]\napi_key_cmd = "pass b-${SECRET}"\n`,
    );
    expect(error.message).toContain('both use api_key_cmd, with different commands');
    expect(error.message).not.toContain(SECRET);
  });

  it('roles sharing a base_url must agree on concurrency', async () => {
    const { error } = await refusal(`${BASE}[profiles.p.root]\nconcurrency = 4\n`);
    expect(error.message).toContain('disagree on concurrency (root 4, sub 1)');
    expect(error.key).toBe('profiles.p.root.concurrency');
  });

  it('a trailing slash does not make two URLs different', async () => {
    const { error } = await refusal(
      `${BASE}[profiles.p.root]\nbase_url = "http://127.0.0.1:1/v1/"\nconcurrency = 4\n`,
    );
    expect(error.message).toContain('disagree on concurrency');
  });

  it('RECLAMO_BASE_URL joining roles that disagree says so', async () => {
    const env = cleanEnv({ RECLAMO_BASE_URL: 'http://127.0.0.1:7/v1' });
    const { error } = await refusal(
      `${BASE}[profiles.p.root]\nbase_url = "http://127.0.0.1:8/v1"\nconcurrency = 4\n`,
      'p',
      env,
    );
    expect(error.message).toContain('RECLAMO_BASE_URL puts both roles on one URL');
  });

  it('a bad RECLAMO_BASE_URL', async () => {
    const env = cleanEnv({ RECLAMO_BASE_URL: `ftp://x/${SECRET}` });
    const { error } = await refusal(BASE, 'p', env);
    expect(error.key).toBe('RECLAMO_BASE_URL');
    expect(error.message).not.toContain(SECRET);
  });

  it('a role with no model names where to set one', async () => {
    const { error } = await refusal(
      '[profiles.p]\nbase_url = "http://127.0.0.1:1/v1"\n[profiles.p.root]\nmodel = "m"\n',
    );
    expect(error.message).toContain('gives the sub role no model');
    expect(error.message).toContain('[profiles.p.sub]');
    expect(error.message).toContain('RECLAMO_MODEL');
  });

  it('compaction threshold must be below the hard ceiling', async () => {
    const { error } = await refusal(
      `${BASE}compaction_threshold_pct = 0.9\nhard_ceiling_pct = 0.8\n`,
    );
    expect(error.message).toContain('compaction_threshold_pct must be below hard_ceiling_pct');
  });

  it('a named profile file that does not exist', async () => {
    const error = await loadProfile({
      profile: 'ollama',
      env: cleanEnv({ RECLAMO_PROFILES: '/nonexistent/p.toml' }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(
      '/nonexistent/p.toml (named by RECLAMO_PROFILES) does not exist',
    );
  });

  it('no profile selected: shows how to configure one and points to the demo', async () => {
    const error = await loadProfile({ env: cleanEnv() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('--profile ollama');
    expect(message).toContain('RECLAMO_PROFILE=');
    expect(message).toContain('[profiles.default]');
    expect(message).toContain('base_url = "http://127.0.0.1:8080/v1"');
    expect(message).toContain('npx reclamo demo');
  });
});
