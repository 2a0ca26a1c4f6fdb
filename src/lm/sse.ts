/**
 * A small server-sent-events parser for model streams. Text goes in as it
 * arrives (any split, LF or CRLF); each complete event comes out with its name
 * and data text. JSON parsing is the caller's.
 */

export interface SseEvent {
  /** The `event:` field, when the server sent one. */
  event: string | undefined;
  /** The `data:` lines, joined with newlines. */
  data: string;
}

export class SseParser {
  private buffer = '';

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  /** Feeds the next piece of the stream. */
  push(text: string): void {
    let buffer = this.buffer + text;
    // A CR at the end may be half of a CRLF split across pieces: decide next time.
    let held = '';
    if (buffer.endsWith('\r')) {
      held = '\r';
      buffer = buffer.slice(0, -1);
    }
    if (buffer.includes('\r')) buffer = buffer.replace(/\r\n?/g, '\n');
    let start = 0;
    let end = buffer.indexOf('\n\n', start);
    while (end >= 0) {
      this.emit(buffer.slice(start, end));
      start = end + 2;
      end = buffer.indexOf('\n\n', start);
    }
    this.buffer = (start === 0 ? buffer : buffer.slice(start)) + held;
  }

  /** The stream ended: a last event without its blank line still counts. */
  end(): void {
    this.push('\n\n');
    this.buffer = '';
  }

  private emit(block: string): void {
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
    if (data !== undefined) this.onEvent({ event, data });
  }
}
