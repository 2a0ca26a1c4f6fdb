/**
 * The private channel's framing: a 4-byte big-endian length, then a JSON object that
 * carries a sequence number (`s`, 1, 2, 3, ... per direction) and the session token
 * (`k`). Model code runs inside the worker and can reach the channel's descriptor, so
 * every frame is checked strictly; any departure is a protocol violation.
 */

/** A frame broke the rules; the worker must be killed and relaunched. */
export class ProtocolViolation extends Error {
  override readonly name = 'ProtocolViolation';
}

/** A checked message from the worker. */
export type WorkerMessage = Record<string, unknown> & { type: string };

/** Encodes host-to-worker frames with their sequence number and token. */
export class FrameEncoder {
  private seq = 0;
  constructor(private readonly token: string) {}

  encode(message: Record<string, unknown>): Buffer {
    this.seq += 1;
    const body = JSON.stringify({ s: this.seq, k: this.token, ...message });
    const payload = Buffer.from(body, 'utf8');
    const frame = Buffer.allocUnsafe(4 + payload.length);
    frame.writeUInt32BE(payload.length, 0);
    payload.copy(frame, 4);
    return frame;
  }
}

/** Splits the worker's byte stream into checked messages. */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private seq = 0;

  constructor(
    private readonly token: string,
    private readonly maxFrameBytes: number,
  ) {}

  /** Feeds bytes; returns the complete messages, or throws ProtocolViolation. */
  push(chunk: Buffer): WorkerMessage[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const out: WorkerMessage[] = [];
    for (;;) {
      if (this.buffered < 4) return out;
      const head = this.peek(4);
      const length = head.readUInt32BE(0);
      if (length > this.maxFrameBytes || length < 2) {
        throw new ProtocolViolation(`frame length ${length} is outside 2..${this.maxFrameBytes}`);
      }
      if (this.buffered < 4 + length) return out;
      const frame = this.take(4 + length);
      out.push(this.check(frame.subarray(4)));
    }
  }

  private peek(n: number): Buffer {
    const first = this.chunks[0]!;
    if (first.length >= n) return first;
    const merged = Buffer.concat(this.chunks);
    this.chunks = [merged];
    return merged;
  }

  private take(n: number): Buffer {
    const merged = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const frame = merged.subarray(0, n);
    const rest = merged.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return frame;
  }

  private check(payload: Buffer): WorkerMessage {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString('utf8'));
    } catch {
      throw new ProtocolViolation('frame payload is not JSON');
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new ProtocolViolation('frame payload is not an object');
    }
    const msg = raw as Record<string, unknown>;
    if (msg.s !== this.seq + 1) {
      throw new ProtocolViolation(`frame sequence ${String(msg.s)} where ${this.seq + 1} was due`);
    }
    if (msg.k !== this.token) throw new ProtocolViolation('frame carries the wrong session token');
    if (typeof msg.type !== 'string') throw new ProtocolViolation('frame has no type');
    this.seq += 1;
    return msg as WorkerMessage;
  }
}
