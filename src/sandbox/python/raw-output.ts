import { StringDecoder } from 'node:string_decoder';

/**
 * Bytes the worker wrote straight to fd 1/2 (the code's `os.write`, anything it spawned)
 * during one execution, kept up to a character limit and counted in full. The worker
 * ends each execution's raw output with a marker so it is attributed to the right result.
 */
export class RawOutput {
  private readonly decoder = new StringDecoder('utf8');
  private readonly parts: string[] = [];
  private kept = 0;
  /** Characters written, including those not kept. */
  total = 0;
  /** True once the end marker arrived. */
  ended = false;
  private carry: Buffer = Buffer.alloc(0);
  private readonly marker: Buffer;
  private waiter: (() => void) | undefined;

  constructor(
    id: number,
    private readonly limit: number,
  ) {
    this.marker = endMarker(id);
  }

  /** Takes a chunk of the stream; after the marker everything is ignored. */
  push(chunk: Buffer): void {
    if (this.ended) return;
    const data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const at = data.indexOf(this.marker);
    if (at >= 0) {
      this.keep(data.subarray(0, at));
      this.keepText(this.decoder.end());
      this.ended = true;
      this.waiter?.();
      return;
    }
    const hold = Math.min(data.length, this.marker.length - 1);
    this.keep(data.subarray(0, data.length - hold));
    this.carry = Buffer.from(data.subarray(data.length - hold));
  }

  /** Resolves when the marker has arrived, or after `ms` at the latest. */
  waitForEnd(ms: number): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  text(): string {
    return this.parts.join('');
  }

  private keep(bytes: Buffer): void {
    if (bytes.length) this.keepText(this.decoder.write(bytes));
  }

  private keepText(s: string): void {
    if (!s) return;
    this.total += s.length;
    const room = this.limit - this.kept;
    if (room <= 0) return;
    const piece = s.length <= room ? s : s.slice(0, room);
    this.parts.push(piece);
    this.kept += piece.length;
  }
}

/** The bytes that close execution `id`'s raw output. */
export function endMarker(id: number): Buffer {
  return Buffer.from(`\x00RCLM${id}\x00`, 'latin1');
}
