/**
 * The live status line of `reclamo infer` and `reclamo map` on a terminal:
 * frames running, requests in flight, calls and tokens left, elapsed time.
 * It is redrawn on every event and once a second; off a terminal nothing is
 * drawn (no control characters reach a file or a pipe).
 */
import type { InferEvent } from '../infer/events.js';

export class InferenceStatus {
  private frames = 0;
  private inFlight = 0;
  private done = 0;
  private calls = 0;
  private tokens = 0;
  private shown = false;
  private readonly timer: NodeJS.Timeout;
  private readonly started = Date.now();

  constructor(
    private readonly stream: NodeJS.WriteStream,
    /** Tasks of a map, shown as done/total; 0 for one frame. */
    private readonly total = 0,
  ) {
    this.timer = setInterval(() => this.draw(), 1_000);
    this.timer.unref();
  }

  /** An event of the tree: counts move, the line is redrawn. */
  readonly onEvent = (event: InferEvent): void => {
    if (event.type === 'frame_start') this.frames += 1;
    if (event.type === 'frame_end') {
      this.frames -= 1;
      if (event.parentId === undefined) this.done += 1;
    }
    if (event.type === 'request_start') this.inFlight += 1;
    if (event.type === 'request_end') this.inFlight -= 1;
    if ('budget' in event) {
      this.calls = event.budget.calls;
      this.tokens = event.budget.tokens;
    }
    this.draw();
  };

  private draw(): void {
    const secs = Math.round((Date.now() - this.started) / 1000);
    const tasks = this.total > 0 ? `tasks ${this.done}/${this.total} · ` : '';
    const line = `${tasks}frames ${this.frames} running · requests ${this.inFlight} in flight · ${this.calls} calls, ${this.tokens} tokens left · ${secs}s`;
    this.stream.write(`\r\x1b[2K${line}`);
    this.shown = true;
  }

  /** Removes the line (before anything else is written) and stops the clock. */
  stop(): void {
    clearInterval(this.timer);
    if (this.shown) this.stream.write('\r\x1b[2K');
    this.shown = false;
  }
}
