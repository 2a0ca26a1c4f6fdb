/**
 * Abort plumbing for one request: the caller's signal and deadline for the
 * whole request (retries included), and per attempt an idle timer that fires
 * only when the server sends nothing for too long. A reply that keeps
 * streaming is never cut by a whole-request timeout.
 */
import { DeadlineError } from '../errors.js';

/** Why an attempt was cut for silence; the attempt is retried. */
export class StallError extends Error {
  override readonly name = 'StallError';
  constructor(readonly idleMs: number) {
    super(`no data from the server for ${formatSeconds(idleMs)}`);
  }
}

export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** One signal for the whole request: aborts on the caller's signal or at the deadline. */
export class RequestScope {
  private readonly controller = new AbortController();
  private deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly caller: AbortSignal | undefined;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);

  constructor(caller: AbortSignal | undefined, deadline: number | undefined, now: () => number) {
    this.caller = caller;
    if (caller?.aborted) {
      this.controller.abort(caller.reason);
      return;
    }
    caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    if (deadline !== undefined) {
      // The error is made only if the deadline passes: an Error's stack trace costs microseconds.
      const expire = () =>
        this.controller.abort(
          new DeadlineError(
            'the deadline passed before the model request finished (time left for the run ran out)',
          ),
        );
      const left = deadline - now();
      if (left <= 0) expire();
      else this.deadlineTimer = setTimeout(expire, left);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  dispose(): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

/**
 * One attempt's signal: follows the request scope, and aborts with a
 * StallError when no data arrives for `firstMs` (before the first event) or
 * `idleMs` (between events). Call `touch()` on every event from the server.
 */
export class AttemptTimer {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout>;
  private started = false;
  private readonly onParentAbort = () => this.controller.abort(this.parent.reason);

  constructor(
    private readonly parent: AbortSignal,
    firstMs: number,
    private readonly idleMs: number,
  ) {
    parent.addEventListener('abort', this.onParentAbort, { once: true });
    this.timer = this.arm(firstMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The server sent something: restart the idle clock. */
  readonly touch = (): void => {
    if (this.started) {
      this.timer.refresh();
      return;
    }
    this.started = true;
    clearTimeout(this.timer);
    this.timer = this.arm(this.idleMs);
  };

  dispose(): void {
    clearTimeout(this.timer);
    this.parent.removeEventListener('abort', this.onParentAbort);
  }

  private arm(ms: number): ReturnType<typeof setTimeout> {
    return setTimeout(() => this.controller.abort(new StallError(ms)), ms);
  }
}
