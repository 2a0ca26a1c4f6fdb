import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('mock model server', () => {
  it('serves models, records normalised requests and counts bytes', async () => {
    server = await startMockServer({
      policy: (r) => `echo ${r.messages.at(-1)?.content}`,
      models: ['m1'],
    });
    const models = (await (await fetch(`${server.url}/models`)).json()) as {
      data: { id: string }[];
    };
    expect(models.data.map((m) => m.id)).toEqual(['m1']);
    const body = { model: 'm1', messages: [{ role: 'user', content: 'hello' }], top_k: 20 };
    const reply = (await (await post(`${server.url}/chat/completions`, body)).json()) as {
      choices: { message: { content: string } }[];
    };
    expect(reply.choices[0]?.message.content).toBe('echo hello');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      protocol: 'openai',
      model: 'm1',
      stream: false,
      index: 0,
      messages: [{ role: 'user', content: 'hello' }],
      body: { top_k: 20 },
    });
    expect(server.counters.requests).toBe(2);
    expect(server.counters.bytesIn).toBe(JSON.stringify(body).length);
    expect(server.counters.bytesOut).toBeGreaterThan(100);
    server.resetCounters();
    expect(server.counters).toMatchObject({ requests: 0, bytesIn: 0, bytesOut: 0 });
  });

  it('normalises Anthropic requests: system, tool_use, tool_result', async () => {
    server = await startMockServer({ policy: () => 'ok' });
    const res = await post(`${server.url}/messages`, {
      model: 'c',
      max_tokens: 10,
      system: 'sys',
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r' }] },
      ],
    });
    expect(res.status).toBe(200);
    expect(server.requests[0]?.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 't1', name: 'f', arguments: '{"a":1}' }],
      },
      { role: 'tool', toolCallId: 't1', content: 'r' },
    ]);
  });

  it('answers bad requests, unknown routes and failing policies with errors', async () => {
    server = await startMockServer({
      policy: () => {
        throw new Error('policy bug');
      },
    });
    expect((await fetch(`${server.url}/nowhere`)).status).toBe(404);
    const bad = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
    const failed = await post(`${server.url}/chat/completions`, { messages: [] });
    expect(failed.status).toBe(500);
    expect(await failed.text()).toContain('policy bug');
  });

  it('sends 429 with Retry-After, streams SSE, and close() drops hung requests', async () => {
    server = await startMockServer({
      policy: (r) => {
        if (r.index === 0) return { fault: { kind: 'status', status: 429, retryAfterSeconds: 7 } };
        if (r.index === 1) return { content: 'abcdef', chunkChars: 2 };
        return { fault: { kind: 'hang' } };
      },
    });
    const limited = await post(`${server.url}/chat/completions`, { messages: [] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    const streamed = await post(`${server.url}/chat/completions`, { messages: [], stream: true });
    const text = await streamed.text();
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    expect(text.match(/"content":"[a-f]{2}"/g)).toHaveLength(3);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const hung = post(`${server.url}/chat/completions`, { messages: [] }).catch((e: unknown) => e);
    while (server.counters.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    await server.close();
    server = undefined;
    expect(await hung).toBeInstanceOf(Error);
  });
});
