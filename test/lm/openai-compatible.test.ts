import { afterEach, describe, expect, it } from 'vitest';
import { DeadlineError, EndpointError } from '../../src/errors.js';
import {
  createOpenAICompatibleModel,
  OpenAICompatibleEndpoint,
} from '../../src/lm/openai-compatible.js';
import type { MockPolicy, MockServer } from '../../src/testing/index.js';
import { startMockServer } from '../../src/testing/index.js';

const fastRetry = { initialDelayMs: 1, maxDelayMs: 5 };
const user = (content: string) => [{ role: 'user' as const, content }];
let server: MockServer | undefined;

async function serve(policy: MockPolicy, latencyMs = 0): Promise<MockServer> {
  server = await startMockServer({ policy, latencyMs });
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('OpenAI-compatible adapter over real HTTP', () => {
  it('sends sampling extras, chat_template_kwargs, reasoning_effort and tools in the body', async () => {
    const s = await serve(() => 'ok');
    const model = createOpenAICompatibleModel({
      baseUrl: s.url,
      model: 'qwen',
      maxTokens: 512,
      thinking: false,
      sampling: { temperature: 0.7, top_p: 0.8, top_k: 20, min_p: 0, repetition_penalty: 1.05 },
    });
    await model.doGenerate({
      messages: user('hi'),
      thinking: true,
      reasoningEffort: 'medium',
      sampling: { presence_penalty: 1 },
      tools: [{ name: 'execute_python', description: 'run code', parameters: { type: 'object' } }],
    });
    const body = s.requests[0]?.body;
    expect(body).toMatchObject({
      model: 'qwen',
      max_tokens: 512,
      temperature: 0.7,
      top_p: 0.8,
      top_k: 20,
      min_p: 0,
      repetition_penalty: 1.05,
      presence_penalty: 1,
      chat_template_kwargs: { enable_thinking: true },
      reasoning_effort: 'medium',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(body?.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'execute_python',
          description: 'run code',
          parameters: { type: 'object' },
        },
      },
    ]);
  });

  it('leaves chat_template_kwargs out when thinking is unset', async () => {
    const s = await serve(() => 'ok');
    const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm' });
    await model.doGenerate({ messages: user('hi') });
    expect(s.requests[0]?.body).not.toHaveProperty('chat_template_kwargs');
    expect(s.requests[0]?.body).not.toHaveProperty('reasoning_effort');
  });

  for (const stream of [true, false]) {
    const mode = stream ? 'streaming' : 'non-streaming';
    it(`splits reasoning sent as reasoning_content / reasoning fields (${mode})`, async () => {
      const s = await serve((r) => ({
        content: 'The answer is 42.',
        reasoning: 'Let me think about it.',
        reasoningField: r.index === 0 ? 'reasoning_content' : 'reasoning',
        chunkChars: 3,
      }));
      const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm', stream });
      for (let i = 0; i < 2; i++) {
        const reply = await model.doGenerate({ messages: user('q') });
        expect(reply.content).toBe('The answer is 42.');
        expect(reply.reasoning).toBe('Let me think about it.');
      }
    });

    it(`splits reasoning sent as <think> tags, tags split across chunks (${mode})`, async () => {
      const s = await serve(() => ({
        content: 'FINAL(42)',
        reasoning: 'count the lines first',
        reasoningAs: 'think-tags',
        chunkChars: 3,
      }));
      const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm', stream });
      const reply = await model.doGenerate({ messages: user('q') });
      expect(reply.content).toBe('FINAL(42)');
      expect(reply.reasoning).toBe('count the lines first');
    });

    it(`reports usage with cached tokens, a length cut and tool calls (${mode})`, async () => {
      const s = await serve((r) =>
        r.index === 0
          ? {
              content: 'partial',
              finishReason: 'length',
              usage: { inputTokens: 100, outputTokens: 7, cachedInputTokens: 64 },
            }
          : {
              toolCalls: [
                {
                  id: 'call_1',
                  name: 'execute_python',
                  arguments: '{"code": "print(len(context))"}',
                },
                { id: 'call_2', name: 'final_answer', arguments: '{"answer": "42"}' },
              ],
              chunkChars: 5,
            },
      );
      const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm', stream });
      const cut = await model.doGenerate({ messages: user('q') });
      expect(cut.finishReason).toBe('length');
      expect(cut.usage).toEqual({ inputTokens: 100, outputTokens: 7, cachedInputTokens: 64 });
      const calls = await model.doGenerate({ messages: user('q') });
      expect(calls.finishReason).toBe('tool_calls');
      expect(calls.toolCalls).toEqual([
        { id: 'call_1', name: 'execute_python', arguments: '{"code": "print(len(context))"}' },
        { id: 'call_2', name: 'final_answer', arguments: '{"answer": "42"}' },
      ]);
    });
  }

  it('sends tool calls and tool results back in the history', async () => {
    const s = await serve(() => 'done');
    const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm' });
    await model.doGenerate({
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'f', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'c1', content: 'result' },
      ],
    });
    expect(s.requests[0]?.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'f', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', content: 'result' },
    ]);
  });

  for (const status of [408, 409, 429, 500, 502, 503]) {
    it(`retries after HTTP ${status}`, async () => {
      const s = await serve((r) =>
        r.index === 0 ? { fault: { kind: 'status', status } } : { content: 'recovered' },
      );
      const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm', retry: fastRetry });
      const reply = await model.doGenerate({ messages: user('q') });
      expect(reply.content).toBe('recovered');
      expect(s.requests).toHaveLength(2);
    });
  }

  for (const status of [400, 401, 403, 404]) {
    it(`does not retry HTTP ${status}`, async () => {
      const s = await serve(() => ({ fault: { kind: 'status', status } }));
      const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm', retry: fastRetry });
      const error = await model.doGenerate({ messages: user('q') }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EndpointError);
      expect(error).toMatchObject({ statusCode: status, isRetryable: false, endpoint: s.url });
      expect(s.requests).toHaveLength(1);
    });
  }

  it('gives up after maxRetries and reports the last status', async () => {
    const s = await serve(() => ({ fault: { kind: 'status', status: 500 } }));
    const model = createOpenAICompatibleModel({
      baseUrl: s.url,
      model: 'm',
      retry: { ...fastRetry, maxRetries: 2 },
    });
    await expect(model.doGenerate({ messages: user('q') })).rejects.toMatchObject({
      name: 'EndpointError',
      statusCode: 500,
      isRetryable: true,
    });
    expect(s.requests).toHaveLength(3);
  });

  it('honours Retry-After on 429', async () => {
    const s = await serve((r) =>
      r.index === 0
        ? { fault: { kind: 'status', status: 429, retryAfterSeconds: 1 } }
        : { content: 'ok' },
    );
    const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm', retry: fastRetry });
    const started = Date.now();
    await model.doGenerate({ messages: user('q') });
    // Backoff alone would wait at most 5 ms; Retry-After asked for one second.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('retries a cut stream and a malformed reply', async () => {
    const s = await serve((r) => {
      if (r.index === 0)
        return {
          content: 'abcdefghijklmnop',
          chunkChars: 2,
          fault: { kind: 'cut-stream', afterChunks: 3 },
        };
      if (r.index === 1) return { content: 'x', fault: { kind: 'malformed-json' } };
      return 'whole';
    });
    const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm', retry: fastRetry });
    const reply = await model.doGenerate({ messages: user('q') });
    expect(reply.content).toBe('whole');
    expect(s.requests).toHaveLength(3);
  });

  it('retries a refused connection, then fails with a connection error', async () => {
    const s = await serve(() => 'never');
    const url = s.url;
    await s.close();
    server = undefined;
    const model = createOpenAICompatibleModel({
      baseUrl: url,
      model: 'm',
      retry: { ...fastRetry, maxRetries: 1 },
    });
    await expect(model.doGenerate({ messages: user('q') })).rejects.toThrow(/connection failed/);
  });

  it('holds the concurrency limit under a burst of 100 requests', async () => {
    const s = await serve(() => 'ok', 10);
    const endpoint = new OpenAICompatibleEndpoint({ baseUrl: s.url, concurrency: 4 });
    const root = endpoint.languageModel({ model: 'root' });
    const sub = endpoint.languageModel({ model: 'sub' });
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 ? root : sub).doGenerate({ messages: user(`${i}`) }),
      ),
    );
    expect(s.counters.requests).toBe(100);
    expect(s.counters.maxInFlight).toBe(4);
  });

  it('cuts a hung request at the deadline', async () => {
    const s = await serve(() => ({ fault: { kind: 'hang' } }));
    const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm', retry: fastRetry });
    const started = Date.now();
    const error = await model
      .doGenerate({ messages: user('q'), deadline: Date.now() + 300 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineError);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(s.requests).toHaveLength(1);
  });

  it('cuts a stream stalled past the idle timeout and retries it', async () => {
    const s = await serve((r) =>
      r.index === 0
        ? { content: 'abcdefgh', chunkChars: 2, fault: { kind: 'stall-stream', afterChunks: 2 } }
        : 'after the stall',
    );
    const model = createOpenAICompatibleModel({
      baseUrl: s.url,
      model: 'm',
      retry: fastRetry,
      timeoutMs: 300,
    });
    const reply = await model.doGenerate({ messages: user('q') });
    expect(reply.content).toBe('after the stall');
    expect(s.requests).toHaveLength(2);
  });

  it('lets a slow stream run past the timeout while it keeps sending', async () => {
    const s = await serve(() => ({ content: 'x'.repeat(12), chunkChars: 1, chunkDelayMs: 50 }));
    const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm', timeoutMs: 250 });
    const reply = await model.doGenerate({ messages: user('q') });
    expect(reply.content).toBe('x'.repeat(12));
    expect(reply.latencyMs).toBeGreaterThan(250);
    expect(s.requests).toHaveLength(1);
  });

  it('cancels through an AbortSignal without retrying', async () => {
    const s = await serve(() => ({ fault: { kind: 'hang' } }));
    const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm', retry: fastRetry });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user pressed ctrl-c')), 100);
    await expect(
      model.doGenerate({ messages: user('q'), abortSignal: controller.signal }),
    ).rejects.toThrow('user pressed ctrl-c');
    expect(s.requests).toHaveLength(1);
  });

  it('reuses kept-alive connections for streamed and whole replies', async () => {
    const s = await serve(() => 'ok');
    for (const stream of [true, false]) {
      const model = createOpenAICompatibleModel({ baseUrl: s.url, model: 'm', stream });
      for (let i = 0; i < 10; i++) await model.doGenerate({ messages: user(`${i}`) });
    }
    expect(s.counters.requests).toBe(20);
    // Sequential requests need one connection; allow a spare in case one was closed meanwhile.
    expect(s.counters.connections).toBeLessThanOrEqual(2);
  });

  it('lists the server models', async () => {
    const s = await startMockServer({ policy: () => 'ok', models: ['a', 'b'] });
    server = s;
    const endpoint = new OpenAICompatibleEndpoint({ baseUrl: s.url });
    expect(await endpoint.listModels()).toEqual(['a', 'b']);
  });
});
