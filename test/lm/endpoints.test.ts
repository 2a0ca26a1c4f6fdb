import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, KeyError } from '../../src/errors.js';
import { createEndpointPool } from '../../src/lm/endpoints.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { testProfile } from './profile-fixture.js';

const servers: MockServer[] = [];
async function serve(latencyMs = 0): Promise<MockServer> {
  const server = await startMockServer({ policy: (r) => `answer from ${r.model}`, latencyMs });
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }] });

describe('createEndpointPool', () => {
  it('shares one semaphore between roles on the same base_url', async () => {
    const s = await serve(10);
    const pool = createEndpointPool(
      testProfile(s.url, { root: { concurrency: 3 }, sub: { concurrency: 3 } }),
    );
    expect(pool.endpoints).toEqual([
      { baseUrl: s.url, api: 'openai', roles: ['root', 'sub'], concurrency: 3 },
    ]);
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? pool.root : pool.sub).doGenerate(ask(`${i}`))),
    );
    expect(s.counters.maxInFlight).toBe(3);
  });

  it('gives each base_url its own client and limit', async () => {
    const reader = await serve(10);
    const planner = await serve(10);
    const pool = createEndpointPool(
      testProfile(reader.url, {
        root: { baseUrl: planner.url, concurrency: 1 },
        sub: { concurrency: 4 },
      }),
    );
    expect(pool.endpoints.map((e) => [e.baseUrl, e.roles, e.concurrency])).toEqual([
      [planner.url, ['root'], 1],
      [reader.url, ['sub'], 4],
    ]);
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => pool.sub.doGenerate(ask(`s${i}`))),
      ...Array.from({ length: 5 }, (_, i) => pool.root.doGenerate(ask(`r${i}`))),
    ]);
    expect(planner.counters.maxInFlight).toBe(1);
    expect(reader.counters.maxInFlight).toBe(4);
    expect(planner.requests.every((r) => r.model === 'root-model')).toBe(true);
    expect(reader.requests.every((r) => r.model === 'sub-model')).toBe(true);
  });

  it('bakes role defaults into each model; request fields override them', async () => {
    const s = await serve();
    const pool = createEndpointPool(
      testProfile(s.url, {
        root: {
          maxTokens: 4096,
          enableThinking: true,
          reasoningEffort: 'medium',
          sampling: { temperature: 0.6, top_k: 20 },
          contextTokens: 32768,
        },
        sub: {
          maxTokens: 2048,
          enableThinking: false,
          sampling: { temperature: 0.7, presence_penalty: 1 },
        },
      }),
    );
    expect(pool.root).toMatchObject({
      modelId: 'root-model',
      contextTokens: 32768,
      maxTokens: 4096,
    });
    await pool.root.doGenerate(ask('a'));
    await pool.sub.doGenerate(ask('b'));
    await pool.sub.doGenerate({
      ...ask('c'),
      thinking: true,
      maxTokens: 99,
      sampling: { temperature: 0 },
    });
    const [root, sub, override] = s.requests.map((r) => r.body);
    expect(root).toMatchObject({
      model: 'root-model',
      max_tokens: 4096,
      temperature: 0.6,
      top_k: 20,
      reasoning_effort: 'medium',
      chat_template_kwargs: { enable_thinking: true },
    });
    expect(sub).toMatchObject({
      model: 'sub-model',
      max_tokens: 2048,
      temperature: 0.7,
      presence_penalty: 1,
      chat_template_kwargs: { enable_thinking: false },
    });
    expect(override).toMatchObject({
      max_tokens: 99,
      temperature: 0,
      presence_penalty: 1,
      chat_template_kwargs: { enable_thinking: true },
    });
  });

  it('runs api_key_cmd once per base_url and sends its key', async () => {
    const s = await serve();
    const pool = createEndpointPool(
      testProfile(s.url, {
        root: { apiKeyCmd: "printf 'sk-%s' pooled" },
        sub: { apiKeyCmd: "printf 'sk-%s' pooled" },
      }),
    );
    await pool.resolveKeys();
    await pool.root.doGenerate(ask('a'));
    await pool.sub.doGenerate(ask('b'));
    expect(s.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer sk-pooled',
      'Bearer sk-pooled',
    ]);
  });

  it('throws KeyError for a missing key on a remote endpoint, not on a local one', async () => {
    const remote = testProfile('https://models.example/v1', {
      root: { apiKeyEnv: 'NO_SUCH_KEY_VAR' },
      sub: { apiKeyEnv: 'NO_SUCH_KEY_VAR' },
    });
    expect(() => createEndpointPool(remote, { env: {} })).toThrow(KeyError);
    const s = await serve();
    const local = createEndpointPool(
      testProfile(s.url, {
        root: { apiKeyEnv: 'NO_SUCH_KEY_VAR' },
        sub: { apiKeyEnv: 'NO_SUCH_KEY_VAR' },
      }),
      { env: {} },
    );
    await local.root.doGenerate(ask('a'));
    expect(s.requests[0]?.headers).not.toHaveProperty('authorization');
  });

  it('refuses roles that share a URL but disagree on the key source or concurrency', () => {
    expect(() =>
      createEndpointPool(
        testProfile('http://127.0.0.1:9/v1', { root: { concurrency: 1 }, sub: { concurrency: 2 } }),
      ),
    ).toThrow(ConfigError);
  });

  it('reports a failing api_key_cmd as KeyError from resolveKeys', async () => {
    const pool = createEndpointPool(
      testProfile('http://127.0.0.1:9/v1', {
        root: { apiKeyCmd: 'exit 4' },
        sub: { apiKeyCmd: 'exit 4' },
      }),
    );
    await expect(pool.resolveKeys()).rejects.toThrow(/exited with status 4/);
    await expect(pool.root.doGenerate(ask('a'))).rejects.toBeInstanceOf(KeyError);
  });
});
