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
  /** Text received since the last complete event, in pieces (joined only at a boundary). */
  private parts: string[] = [];
  /** The last character held in `parts` ('' when none), for a boundary split across pieces. */
  private last = '';
  /** A CR at the end of a piece may be half of a CRLF: decided with the next piece. */
  private heldCr = false;

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  /**
   * Feeds the next piece of the stream. Only the new piece is searched for an
   * event boundary, so one huge event arriving in small pieces costs linear time.
   */
  push(text: string): void {
    let piece = this.heldCr ? `\r${text}` : text;
    this.heldCr = piece.endsWith('\r');
    if (this.heldCr) piece = piece.slice(0, -1);
    if (piece.includes('\r')) piece = piece.replace(/\r\n?/g, '\n');
    if (piece === '') return;
    const boundary = `${this.last}${piece}`.includes('\n\n');
    this.parts.push(piece);
    this.last = piece.slice(-1);
    if (!boundary) return;
    const buffer = this.parts.join('');
    let start = 0;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      this.emit(buffer.slice(start, end));
      start = end + 2;
      end = buffer.indexOf('\n\n', start);
    }
    const rest = buffer.slice(start);
    this.parts = rest === '' ? [] : [rest];
    this.last = rest.slice(-1);
  }

  /** The stream ended: a last event without its blank line still counts. */
  end(): void {
    this.push('\n\n');
    this.parts = [];
    this.last = '';
    this.heldCr = false;
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
