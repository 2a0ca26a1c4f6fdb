/** A model from options: a whole profile from a URL and a model name, or a profile's fields replaced. */
import { describe, expect, it } from 'vitest';
import { MODEL_FLAG_NAMES } from '../../src/cli/model-flags.js';
import { inlineProfile } from '../../src/config/inline-profile.js';
import { loadProfile } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';

const URL = 'http://127.0.0.1:8000/v1';

describe('inlineProfile', () => {
  it('builds both roles from a URL and a model: OpenAI-compatible, one request at a time, keyless', () => {
    const p = inlineProfile({ baseUrl: URL, model: 'qwen3-8b' }, undefined, { env: {} });
    for (const role of [p.root, p.sub]) {
      expect(role).toEqual({
        baseUrl: URL,
        api: 'openai',
        concurrency: 1,
        model: 'qwen3-8b',
        sampling: {},
      });
    }
    expect(p.run).toEqual({});
    expect(p.source).toBe('baseUrl, model');
  });

  it('takes a sub model, a key variable and a window', () => {
    const p = inlineProfile(
      { baseUrl: URL, model: 'big', subModel: 'small', apiKeyEnv: 'GPU_KEY', contextTokens: 32768 },
      undefined,
      { env: {} },
    );
    expect([p.root.model, p.sub.model]).toEqual(['big', 'small']);
    expect([p.root.apiKeyEnv, p.sub.apiKeyEnv]).toEqual(['GPU_KEY', 'GPU_KEY']);
    expect([p.root.contextTokens, p.sub.contextTokens]).toEqual([32768, 32768]);
  });

  it('reads the key from RECLAMO_API_KEY when no variable is named, and never copies it', () => {
    const p = inlineProfile({ baseUrl: URL, model: 'm' }, undefined, {
      env: { RECLAMO_API_KEY: 'sk-secret-value' },
    });
    expect(p.root.apiKeyEnv).toBe('RECLAMO_API_KEY');
    expect(JSON.stringify(p)).not.toContain('sk-secret-value');
  });

  it('over a profile, replaces the server of both roles, the models and the key source', async () => {
    const base = await loadProfile({ profile: 'openai', env: {} });
    const p = inlineProfile(
      { baseUrl: 'https://gateway.example/v1', model: 'gpt-5.1', apiKeyEnv: 'GATEWAY_KEY' },
      base,
      { env: {} },
    );
    expect([p.root.baseUrl, p.sub.baseUrl]).toEqual([
      'https://gateway.example/v1',
      'https://gateway.example/v1',
    ]);
    expect([p.root.model, p.sub.model]).toEqual(['gpt-5.1', 'gpt-5.1']);
    expect(p.root.apiKeyEnv).toBe('GATEWAY_KEY');
    // What the flags leave alone stays the profile's.
    expect(p.root.reasoningEffort).toBe('medium');
    expect(p.root.contextTokens).toBe(272000);
    expect(p.name).toBe('openai');
    expect(p.source).toBe('built-in + baseUrl, model, apiKeyEnv');
    // The base is not changed.
    expect(base.root.model).toBe('gpt-5');
  });

  it('--model alone changes the models and nothing else; --sub-model only the sub role', async () => {
    const base = await loadProfile({ profile: 'ollama', env: {} });
    const p = inlineProfile({ subModel: 'qwen3:0.6b' }, base, { env: {} });
    expect([p.root.model, p.sub.model]).toEqual(['qwen3:8b', 'qwen3:0.6b']);
    expect(p.root.baseUrl).toBe(base.root.baseUrl);
  });

  it('refuses a missing model or URL, naming the option (or the flag, for the CLI)', () => {
    expect(() => inlineProfile({ baseUrl: URL }, undefined, { env: {} })).toThrow(
      /baseUrl and model name a model without a profile, and model is missing/,
    );
    const cli = () =>
      inlineProfile({ model: 'm' }, undefined, { env: {}, names: MODEL_FLAG_NAMES });
    expect(cli).toThrow(ConfigError);
    expect(cli).toThrow(
      /--base-url and --model name a model without a profile, and --base-url is missing/,
    );
  });

  it('refuses a URL that is not http(s), or carries a password, without repeating it', () => {
    expect(() => inlineProfile({ baseUrl: 'ftp://x', model: 'm' })).toThrow(
      /baseUrl must be an http/,
    );
    const withPassword = 'https://user:sk-in-the-url@host/v1';
    let message = '';
    try {
      inlineProfile({ baseUrl: withPassword, model: 'm' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('carries a user name or password');
    expect(message).not.toContain('sk-in-the-url');
  });

  it('refuses a key pasted where a variable name goes, without repeating the key', () => {
    let message = '';
    try {
      inlineProfile({ baseUrl: URL, model: 'm', apiKeyEnv: 'sk-live-abc123!' }, undefined, {
        names: MODEL_FLAG_NAMES,
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('--api-key-env must be the NAME of an environment variable');
    expect(message).not.toContain('sk-live-abc123');
  });

  it('refuses an empty model name and a window too small to hold a prompt', () => {
    expect(() => inlineProfile({ baseUrl: URL, model: ' ' })).toThrow(/model is empty/);
    expect(() => inlineProfile({ baseUrl: URL, model: 'm', contextTokens: 100 })).toThrow(
      /contextTokens must be a whole number of tokens, at least 256/,
    );
  });

  it('over a profile whose roles use two servers, one URL for both must agree on concurrency', async () => {
    const base = await loadProfile({ profile: 'ollama', env: {} });
    const split = {
      ...base,
      sub: { ...base.sub, baseUrl: 'http://127.0.0.1:9/v1', concurrency: 4 },
    };
    expect(() => inlineProfile({ baseUrl: URL }, split, { env: {} })).toThrow(
      /disagree on concurrency/,
    );
  });
});
