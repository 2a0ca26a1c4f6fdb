/**
 * How both adapters read one attempt's reply: the POST, then the body as one
 * JSON object or as server-sent events. What the JSON means stays with each
 * adapter.
 */

import { isRecord, safeParseJson } from '../util/safe-json.js';
import { type AttemptIO, ReplyError } from './endpoint-base.js';
import { exchange, type HttpResponse, readText, type Transport } from './http-transport.js';
import { SseParser } from './sse.js';

/** POSTs an encoded request body; resolves once a 2xx reply's head has arrived. */
export async function postRequest(
  transport: Transport,
  url: string,
  body: string,
  io: AttemptIO,
): Promise<HttpResponse> {
  const response = await exchange(transport, {
    method: 'POST',
    url,
    headers: io.headers,
    body,
    signal: io.signal,
  });
  io.touch();
  return response;
}

/** Reads a whole (non-streamed) reply, which must be one JSON object. */
export async function readJsonReply<T>(response: HttpResponse, io: AttemptIO): Promise<T> {
  const text = await readText(response, io.touch);
  const parsed = safeParseJson<T>(text);
  if (!parsed.ok || !isRecord(parsed.value)) {
    throw new ReplyError(
      `the reply is not a JSON object: ${notTheApi(response, text)}`,
      !html(response),
    );
  }
  return parsed.value;
}

/** An HTML page where the API should answer: a wrong base_url, which no retry fixes. */
function html(response: HttpResponse): boolean {
  return /html/i.test(response.header('content-type') ?? '');
}

/**
 * What a reply that is not the API's format holds (its content type and first
 * characters), and the usual cause: a base_url that points at some other page.
 */
function notTheApi(response: HttpResponse, head: string): string {
  const type = response.header('content-type') ?? 'no content type';
  const start = head.trim().slice(0, 120).replace(/\s+/g, ' ');
  const body =
    start === '' ? 'an empty body' : `"${start}${head.trim().length > 120 ? '...' : ''}"`;
  return `got ${type} with ${body}. Check that base_url is the API's root (for OpenAI-compatible servers it usually ends in /v1) and that the server speaks that API`;
}

/**
 * Reads a streamed reply, handing each event's data to `onData` until it
 * returns true (the protocol's last event).
 */
export async function readEventStream(
  response: HttpResponse,
  io: AttemptIO,
  onData: (data: string) => boolean,
): Promise<void> {
  let finished = false;
  let events = 0;
  let head = '';
  // Read to the end even after the last event: stopping early would close the
  // socket instead of returning it to the keep-alive pool.
  const parser = new SseParser((event) => {
    events += 1;
    if (!finished) finished = onData(event.data);
  });
  await response.read((text) => {
    io.touch();
    if (events === 0 && head.length < 200) head += text.slice(0, 200);
    parser.push(text);
  });
  parser.end();
  io.signal.throwIfAborted();
  // A 200 with no event at all is some other page (an HTML index, a JSON error).
  if (events === 0) {
    throw new ReplyError(`expected an event stream, ${notTheApi(response, head)}`, !html(response));
  }
}

/** One stream event's data as JSON; a malformed event fails the attempt (it is retried). */
export function parseEventData<T>(data: string): T {
  const parsed = safeParseJson<T>(data);
  if (!parsed.ok) throw new ReplyError(`malformed stream event: ${parsed.error}`);
  return parsed.value;
}
