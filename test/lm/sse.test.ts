import { describe, expect, it } from 'vitest';
import { EndpointError } from '../../src/errors.js';
import { createAnthropicModel } from '../../src/lm/anthropic.js';
import { createOpenAICompatibleModel } from '../../src/lm/openai-compatible.js';
import { type SseEvent, SseParser } from '../../src/lm/sse.js';

function body(parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
}

/** A fetch that answers every request with the given SSE text (injected, as library users may). */
function sseFetch(parts: string[]): typeof fetch {
  return async () =>
    new Response(body(parts), { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe('SseParser', () => {
  function parse(parts: string[]) {
    const events: SseEvent[] = [];
    const parser = new SseParser((event) => events.push(event));
    for (const part of parts) parser.push(part);
    parser.end();
    return events;
  }

  it('joins events split across pieces, skips comments, handles CRLF and multi-line data', () => {
    expect(
      parse([
        ': keep-alive\n\n',
        'event: a\r\nda',
        'ta: 1\r\ndata: 2\r\n\r\n',
        'data: {"x":1}\n\n',
        'data: tail',
      ]),
    ).toEqual([
      { event: 'a', data: '1\n2' },
      { event: undefined, data: '{"x":1}' },
      { event: undefined, data: 'tail' },
    ]);
  });

  it('does not see an event boundary in a CRLF split between two pieces', () => {
    expect(parse(['data: 1\r', '\ndata: 2\r\n\r', '\n', 'data: 3\r'])).toEqual([
      { event: undefined, data: '1\n2' },
      { event: undefined, data: '3' },
    ]);
  });

  it('gives the same events whatever the split', () => {
    const text = 'event: x\ndata: {"a":1}\n\n: c\n\ndata: é\r\n\r\ndata: [DONE]\n\n';
    const whole = parse([text]);
    for (let cut = 1; cut < text.length; cut++) {
      expect(parse([text.slice(0, cut), text.slice(cut)])).toEqual(whole);
    }
    expect(whole.map((e) => e.data)).toEqual(['{"a":1}', 'é', '[DONE]']);
  });
});

describe('errors sent inside a stream', () => {
  it('OpenAI-compatible: an error object with a 4xx code fails without retry', async () => {
    let calls = 0;
    const fetchOnce: typeof fetch = (input, init) => {
      calls++;
      return sseFetch([
        'data: {"choices":[{"delta":{"content":"x"}}]}\n\n',
        'data: {"error":{"message":"prompt too long","code":400}}\n\n',
      ])(input, init);
    };
    const model = createOpenAICompatibleModel({
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      fetch: fetchOnce,
    });
    const error = await model
      .doGenerate({ messages: [{ role: 'user', content: 'q' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EndpointError);
    expect(error).toMatchObject({ statusCode: 400, isRetryable: false });
    expect((error as Error).message).toContain('prompt too long');
    expect(calls).toBe(1);
  });

  it('Anthropic: an overloaded_error event is retried', async () => {
    let calls = 0;
    const events = (text: string) => [
      `event: message_start\ndata: {"type":"message_start","message":{"model":"c","usage":{"input_tokens":3}}}\n\n`,
      `event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n`,
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${text}"}}\n\n`,
      'event: ping\ndata: {"type":"ping"}\n\n',
      `event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}\n\n`,
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ];
    const flaky: typeof fetch = (input, init) => {
      calls++;
      return calls === 1
        ? sseFetch([
            'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"busy"}}\n\n',
          ])(input, init)
        : sseFetch(events('hello'))(input, init);
    };
    const model = createAnthropicModel({
      baseUrl: 'http://127.0.0.1:9',
      model: 'c',
      fetch: flaky,
      retry: { initialDelayMs: 1 },
    });
    const reply = await model.doGenerate({ messages: [{ role: 'user', content: 'q' }] });
    expect(reply).toMatchObject({ content: 'hello', usage: { inputTokens: 3, outputTokens: 2 } });
    expect(calls).toBe(2);
  });
});
