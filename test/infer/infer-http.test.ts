/** infer against the mock server over real HTTP (OpenAI-compatible and Anthropic). */
import { afterEach, describe, expect, it } from 'vitest';
import { createBudget } from '../../src/infer/budget.js';
import type { InferEvent } from '../../src/infer/events.js';
import { infer, inferTraced } from '../../src/infer/infer.js';
import { createAnthropicModel } from '../../src/lm/anthropic.js';
import { createOpenAICompatibleModel } from '../../src/lm/openai-compatible.js';
import { type MockServer, startMockServer } from '../../src/testing/mock-server.js';
import { tempLogDir, traceEvents } from './helpers.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const openai = (url: string) =>
  createOpenAICompatibleModel({ baseUrl: url, model: 'mock-model', retry: { maxRetries: 0 } });

describe('infer over HTTP', () => {
  it('two frames over the same views send byte-identical prefixes up to the end of the views', async () => {
    server = await startMockServer({
      policy: (request) =>
        request.messages.at(-1)?.content.includes('Count') ? '{"n": 2}' : 'a summary',
    });
    const model = openai(server.url);
    const views = ['first view text', { label: 'second', content: 'second view text' }];
    await infer('Summarize the views.', { model, views, logDir: false });
    await infer('Count the views.', {
      model,
      views,
      contract: { type: 'object', properties: { n: { type: 'integer' } } },
      logDir: false,
    });
    const [a, b] = server.requests.map((r) => JSON.stringify(r.body.messages));
    if (a === undefined || b === undefined) throw new Error('expected two requests');
    const end = a.indexOf('second view text') + 'second view text'.length;
    expect(b.slice(0, end)).toBe(a.slice(0, end));
    // The prefix runs through the views; the two requests differ only after them.
    let common = 0;
    while (common < a.length && a[common] === b[common]) common++;
    expect(common).toBeGreaterThanOrEqual(end);
    expect(a.slice(common)).toContain('Summarize');
  });

  it('cached prompt tokens reported by an OpenAI-compatible server are not charged', async () => {
    server = await startMockServer({
      policy: () => ({
        content: 'ok',
        usage: { inputTokens: 1_000, cachedInputTokens: 900, outputTokens: 10 },
      }),
    });
    const budget = createBudget({ calls: 4, tokens: 10_000, depth: 1 });
    await infer('q', { model: openai(server.url), budget, logDir: false });
    expect(budget.totals().tokensSettled).toBe(110);
    expect(server.requests[0]?.body.max_tokens).toBe(2_500);
  });

  it('Anthropic cache reads are not charged either, and the tranche is max_tokens', async () => {
    server = await startMockServer({
      policy: () => ({
        content: 'ok',
        usage: { inputTokens: 2_000, cachedInputTokens: 1_500, outputTokens: 20 },
      }),
    });
    const model = createAnthropicModel({
      baseUrl: server.url,
      model: 'claude-test',
      retry: { maxRetries: 0 },
    });
    const budget = createBudget({ calls: 4, tokens: 40_000, depth: 1 });
    await infer('q', { model, budget, logDir: false });
    expect(budget.totals().tokensSettled).toBe(520);
    expect(server.requests[0]?.body.max_tokens).toBe(10_000);
  });

  it('a streamed reply reports receiving at most once a second, with no content', async () => {
    server = await startMockServer({
      policy: () => ({ content: 'x'.repeat(40), chunkChars: 4, chunkDelayMs: 250 }),
    });
    const events: InferEvent[] = [];
    const logDir = tempLogDir('receiving');
    const { traceId } = await inferTraced('q', {
      model: openai(server.url),
      logDir,
      onEvent: (e) => events.push(e),
    });
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('frame_start');
    expect(types.at(-1)).toBe('frame_end');
    expect(types).toContain('request_start');
    expect(types).toContain('request_end');
    const receiving = events.filter((e) => e.type === 'receiving');
    // About 2.5 s of chunks: one right away, then at most one a second.
    expect(receiving.length).toBeGreaterThanOrEqual(2);
    expect(receiving.length).toBeLessThanOrEqual(4);
    for (let i = 1; i < receiving.length; i++) {
      const gap = (receiving[i]?.elapsedMs ?? 0) - (receiving[i - 1]?.elapsedMs ?? 0);
      expect(gap).toBeGreaterThanOrEqual(990);
    }
    for (const event of events) expect(JSON.stringify(event)).not.toContain('xxxx');
    expect(traceEvents(logDir, traceId).find((e) => e.type === 'response')).toMatchObject({
      content: 'x'.repeat(40),
    });
  });

  it('an endpoint failure rejects with the EndpointError and the trace records it', async () => {
    server = await startMockServer({ policy: () => ({ fault: { kind: 'status', status: 400 } }) });
    const logDir = tempLogDir('endpoint');
    const budget = createBudget({ calls: 3, tokens: 1_000, depth: 1 });
    const error = await infer('q', {
      model: openai(server.url),
      budget,
      logDir,
      _internal: { generateId: () => 'failed1' },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'EndpointError', statusCode: 400 });
    const trace = traceEvents(logDir, 'failed1');
    expect(trace.map((e) => e.type)).toEqual(['frame', 'request', 'request_error', 'outcome']);
    expect(trace.at(-1)).toMatchObject({ status: 'error', error: { name: 'EndpointError' } });
    expect(budget.remaining()).toEqual({ calls: 2, tokens: 1_000, depth: 1 });
  });
});
