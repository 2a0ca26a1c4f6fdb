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
  const parsed = safeParseJson<T>(await readText(response, io.touch));
  if (!parsed.ok || !isRecord(parsed.value)) {
    throw new ReplyError(`the reply is not a JSON object${parsed.ok ? '' : `: ${parsed.error}`}`);
  }
  return parsed.value;
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
  // Read to the end even after the last event: stopping early would close the
  // socket instead of returning it to the keep-alive pool.
  const parser = new SseParser((event) => {
    if (!finished) finished = onData(event.data);
  });
  await response.read((text) => {
    io.touch();
    parser.push(text);
  });
  parser.end();
  io.signal.throwIfAborted();
}

/** One stream event's data as JSON; a malformed event fails the attempt (it is retried). */
export function parseEventData<T>(data: string): T {
  const parsed = safeParseJson<T>(data);
  if (!parsed.ok) throw new ReplyError(`malformed stream event: ${parsed.error}`);
  return parsed.value;
}
