/**
 * A small server-sent-events reader for model streams. It reports every
 * chunk of bytes (so the idle timer counts keep-alive comments too) and
 * yields each event's name and data text; JSON parsing is the caller's.
 */

export interface SseEvent {
  /** The `event:` field, when the server sent one. */
  event: string | undefined;
  /** The `data:` lines, joined with newlines. */
  data: string;
}

/** Reads events from a response body until it ends. `onBytes` runs for every chunk received. */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  onBytes: () => void,
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    onBytes();
    buffer += decoder.decode(chunk, { stream: true });
    if (buffer.includes('\r')) buffer = buffer.replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const event = parseBlock(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (event) yield event;
      end = buffer.indexOf('\n\n');
    }
  }
  buffer += decoder.decode();
  const last = parseBlock(buffer);
  if (last) yield last;
}

function parseBlock(block: string): SseEvent | undefined {
  let event: string | undefined;
  let data: string | undefined;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
    else if (field === 'event') event = value;
  }
  return data === undefined ? undefined : { event, data };
}
