import { afterEach, describe, expect, it } from 'vitest';
import { KeyError } from '../../src/errors.js';
import { ping } from '../../src/lm/ping.js';
import { type MockPolicy, type MockServer, startMockServer } from '../../src/testing/index.js';
import { testProfile } from './profile-fixture.js';

const servers: MockServer[] = [];
async function serve(policy: MockPolicy, models = ['mock-a', 'mock-b']): Promise<MockServer> {
  const server = await startMockServer({ policy, models });
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Thinks (reasoning field) only when asked to through chat_template_kwargs. */
const thinkingPolicy: MockPolicy = (r) => {
  const kwargs = r.body.chat_template_kwargs as { enable_thinking?: boolean } | undefined;
  return kwargs?.enable_thinking
    ? {
        content: '42',
        reasoning: '17 + 25 = 42',
        usage: { inputTokens: 20, outputTokens: 9, cachedInputTokens: 4 },
      }
    : 'pong';
};

describe('ping', () => {
  it('reports models, a plain and a thinking request per base_url', async () => {
    const planner = await serve(thinkingPolicy, ['planner']);
    const reader = await serve(thinkingPolicy);
    const report = await ping(
      testProfile(reader.url, { root: { baseUrl: planner.url, concurrency: 1 } }),
    );
    expect(report.ok).toBe(true);
    expect(report.endpoints.map((e) => [e.baseUrl, e.roles, e.model, e.models.ids])).toEqual([
      [planner.url, ['root'], 'root-model', ['planner']],
      [reader.url, ['sub'], 'sub-model', ['mock-a', 'mock-b']],
    ]);
    const [first] = report.endpoints;
    expect(first?.plain).toMatchObject({
      ok: true,
      reasoning: false,
      reply: 'pong',
      finishReason: 'stop',
    });
    expect(first?.thinking).toMatchObject({
      ok: true,
      reasoning: true,
      reply: '42',
      usage: { inputTokens: 20, outputTokens: 9, cachedInputTokens: 4 },
    });
    expect(planner.requests.map((r) => r.body.chat_template_kwargs)).toEqual([
      { enable_thinking: false },
      { enable_thinking: true },
    ]);
  });

  it('marks an endpoint that fails and keeps checking the others', async () => {
    const good = await serve(thinkingPolicy);
    const bad = await serve(() => ({ fault: { kind: 'status', status: 503 } }));
    const report = await ping(testProfile(good.url, { root: { baseUrl: bad.url } }), {
      retry: { maxRetries: 1, initialDelayMs: 1 },
    });
    expect(report.ok).toBe(false);
    expect(report.endpoints.map((e) => e.ok)).toEqual([false, true]);
    expect(report.endpoints[0]?.plain.error).toMatch(/HTTP 503/);
    expect(bad.requests).toHaveLength(4);
  });

  it('throws KeyError before sending anything when a key command fails', async () => {
    const s = await serve(thinkingPolicy);
    const profile = testProfile(s.url, {
      root: { apiKeyCmd: 'exit 9' },
      sub: { apiKeyCmd: 'exit 9' },
    });
    await expect(ping(profile)).rejects.toBeInstanceOf(KeyError);
    expect(s.counters.requests).toBe(0);
  });
});

describe('ping over the Anthropic protocol', () => {
  it('lists models and reports thinking blocks as reasoning', async () => {
    const s = await serve(
      (r) => (r.body.thinking ? { content: '42', reasoning: 'add them' } : 'pong'),
      ['claude-mock'],
    );
    const report = await ping(
      testProfile(s.url, {
        root: { api: 'anthropic', model: 'claude-mock' },
        sub: { api: 'anthropic' },
      }),
    );
    expect(report.ok).toBe(true);
    expect(report.endpoints).toHaveLength(1);
    expect(report.endpoints[0]).toMatchObject({
      api: 'anthropic',
      models: { ok: true, ids: ['claude-mock'] },
      plain: { ok: true, reasoning: false, reply: 'pong' },
      thinking: { ok: true, reasoning: true, reply: '42' },
    });
    expect(s.requests.map((r) => r.protocol)).toEqual(['anthropic', 'anthropic']);
    expect(s.requests[1]?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1536 });
  });
});
