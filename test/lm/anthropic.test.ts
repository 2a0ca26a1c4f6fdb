import { afterEach, describe, expect, it } from 'vitest';
import { EndpointError } from '../../src/errors.js';
import {
  ANTHROPIC_VERSION,
  AnthropicEndpoint,
  createAnthropicModel,
} from '../../src/lm/anthropic.js';
import type { MockPolicy, MockServer } from '../../src/testing/index.js';
import { startMockServer } from '../../src/testing/index.js';

const fastRetry = { initialDelayMs: 1, maxDelayMs: 5 };
let server: MockServer | undefined;

async function serve(policy: MockPolicy): Promise<MockServer> {
  server = await startMockServer({ policy, models: ['claude-mock'] });
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('Anthropic adapter over real HTTP', () => {
  it('sends the system prompt apart, a thinking budget, and drops sampling thinking forbids', async () => {
    const s = await serve(() => 'ok');
    const model = createAnthropicModel({
      baseUrl: s.url,
      apiKey: 'sk-ant-test',
      model: 'claude-mock',
      maxTokens: 8000,
      sampling: { temperature: 0.6, top_p: 0.95, top_k: 20, min_p: 0 },
    });
    await model.doGenerate({
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
      thinking: true,
      reasoningEffort: 'low',
      tools: [{ name: 'f', description: 'd', parameters: { type: 'object' } }],
    });
    await model.doGenerate({ messages: [{ role: 'user', content: 'again' }], thinking: false });
    const [withThinking, without] = s.requests;
    expect(withThinking?.protocol).toBe('anthropic');
    expect(withThinking?.body).toMatchObject({
      model: 'claude-mock',
      max_tokens: 8000,
      system: 'be brief',
      thinking: { type: 'enabled', budget_tokens: 2048 },
      top_p: 0.95,
      stream: true,
      tools: [{ name: 'f', description: 'd', input_schema: { type: 'object' } }],
    });
    expect(withThinking?.body).not.toHaveProperty('temperature');
    expect(withThinking?.body).not.toHaveProperty('min_p');
    expect(withThinking?.headers).toMatchObject({
      authorization: 'Bearer sk-ant-test',
      'anthropic-version': ANTHROPIC_VERSION,
      'content-type': 'application/json',
    });
    expect(withThinking?.headers['user-agent']).toMatch(/^reclamo /);
    expect(without?.body).toMatchObject({ temperature: 0.6, top_p: 0.95, top_k: 20 });
    expect(without?.body).not.toHaveProperty('thinking');
  });

  for (const stream of [true, false]) {
    const mode = stream ? 'streaming' : 'non-streaming';
    it(`returns thinking blocks as reasoning and cache reads as cached tokens (${mode})`, async () => {
      const s = await serve(() => ({
        content: 'Paris.',
        reasoning: 'The capital of France is Paris.',
        usage: { inputTokens: 1200, outputTokens: 30, cachedInputTokens: 1000 },
        chunkChars: 4,
      }));
      const model = createAnthropicModel({ baseUrl: s.url, model: 'claude-mock', stream });
      const reply = await model.doGenerate({ messages: [{ role: 'user', content: 'capital?' }] });
      expect(reply).toMatchObject({
        content: 'Paris.',
        reasoning: 'The capital of France is Paris.',
        finishReason: 'stop',
        usage: { inputTokens: 1200, outputTokens: 30, cachedInputTokens: 1000 },
        model: 'claude-mock',
      });
    });

    it(`assembles tool_use blocks, marks max_tokens, splits <think> text (${mode})`, async () => {
      const s = await serve((r) =>
        r.index === 0
          ? {
              toolCalls: [{ id: 'toolu_1', name: 'execute_python', arguments: '{"code":"x = 1"}' }],
              chunkChars: 3,
            }
          : {
              content: 'cut',
              reasoning: 'hmm',
              reasoningAs: 'think-tags',
              finishReason: 'length',
              chunkChars: 2,
            },
      );
      const model = createAnthropicModel({ baseUrl: s.url, model: 'claude-mock', stream });
      const tools = await model.doGenerate({ messages: [{ role: 'user', content: 'q' }] });
      expect(tools.finishReason).toBe('tool_calls');
      expect(tools.toolCalls).toEqual([
        { id: 'toolu_1', name: 'execute_python', arguments: '{"code":"x = 1"}' },
      ]);
      const cut = await model.doGenerate({ messages: [{ role: 'user', content: 'q' }] });
      expect(cut).toMatchObject({ content: 'cut', reasoning: 'hmm', finishReason: 'length' });
    });
  }

  it('sends tool results as one user turn of tool_result blocks', async () => {
    const s = await serve(() => 'ok');
    const model = createAnthropicModel({ baseUrl: s.url, model: 'claude-mock' });
    await model.doGenerate({
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: 'running',
          toolCalls: [
            { id: 't1', name: 'f', arguments: '{"a":1}' },
            { id: 't2', name: 'f', arguments: '{"a":2}' },
          ],
        },
        { role: 'tool', toolCallId: 't1', content: 'one' },
        { role: 'tool', toolCallId: 't2', content: 'two' },
      ],
    });
    const body = s.requests[0]?.body as { messages: unknown[] };
    expect(body.messages).toHaveLength(3);
    expect(body.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'one' },
        { type: 'tool_result', tool_use_id: 't2', content: 'two' },
      ],
    });
  });

  it('retries 429 and 529 but not 401', async () => {
    const s = await serve((r) => {
      if (r.index === 0) return { fault: { kind: 'status', status: 429 } };
      if (r.index === 1) return { fault: { kind: 'status', status: 529 } };
      if (r.index === 2) return 'ok';
      return { fault: { kind: 'status', status: 401 } };
    });
    const model = createAnthropicModel({ baseUrl: s.url, model: 'claude-mock', retry: fastRetry });
    expect((await model.doGenerate({ messages: [{ role: 'user', content: 'q' }] })).content).toBe(
      'ok',
    );
    const error = await model
      .doGenerate({ messages: [{ role: 'user', content: 'q' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EndpointError);
    expect(error).toMatchObject({ statusCode: 401, isRetryable: false });
    expect(s.requests).toHaveLength(4);
  });

  it('lists models', async () => {
    const s = await serve(() => 'ok');
    expect(await new AnthropicEndpoint({ baseUrl: s.url }).listModels()).toEqual(['claude-mock']);
    // The base URL works with or without its /v1; a keyless server gets no Authorization.
    const bare = s.url.replace(/\/v1$/, '');
    expect(await new AnthropicEndpoint({ baseUrl: bare }).listModels()).toEqual(['claude-mock']);
    await createAnthropicModel({ baseUrl: bare, model: 'claude-mock' }).doGenerate({
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(s.requests.at(-1)?.headers).not.toHaveProperty('authorization');
  });
});
