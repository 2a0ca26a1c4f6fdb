/**
 * The one retry policy of the model layer: exponential backoff with jitter on
 * retryable endpoint errors (408, 409, 429, 5xx, connection failures, stalled
 * streams), honouring Retry-After, never past the caller's deadline.
 */
import { EndpointError } from '../errors.js';

export interface RetryOptions {
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  /** Delay before the first retry, in ms, before jitter. Default 500. */
  initialDelayMs?: number;
  /** Upper bound of one backoff delay, in ms. Default 20,000. */
  maxDelayMs?: number;
  /** Longest Retry-After we honour, in ms; a longer one ends the retries. Default 60,000. */
  maxRetryAfterMs?: number;
  /** Random source in [0, 1) for jitter (injectable for tests). */
  random?: () => number;
}

/** HTTP statuses worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Parses a Retry-After (seconds or HTTP date) or retry-after-ms header value into ms. */
export function parseRetryAfter(
  value: string | null | undefined,
  valueMs?: string | null,
  now: number = Date.now(),
): number | undefined {
  if (valueMs) {
    const ms = Number(valueMs);
    if (Number.isFinite(ms) && ms >= 0) return ms;
  }
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Delay before retry number `retry` (0-based): exponential, capped, with jitter in [50%, 100%]. */
export function backoffDelay(retry: number, options: RetryOptions = {}): number {
  const initial = options.initialDelayMs ?? 500;
  const max = options.maxDelayMs ?? 20_000;
  const random = options.random ?? Math.random;
  const base = Math.min(max, initial * 2 ** retry);
  return base * (0.5 + 0.5 * random());
}

export interface RetryContext {
  retry?: RetryOptions;
  /** Cancels the waits between attempts. */
  signal?: AbortSignal;
  /** Absolute ms since epoch; no retry is scheduled past it. */
  deadline?: number;
  now?: () => number;
}

/** Runs `attempt` until it succeeds, fails for good, or the retries run out. */
export async function withRetry<T>(
  attempt: (attemptIndex: number) => Promise<T>,
  context: RetryContext = {},
): Promise<T> {
  const options = context.retry ?? {};
  const maxRetries = options.maxRetries ?? 4;
  const now = context.now ?? Date.now;
  for (let index = 0; ; index++) {
    try {
      return await attempt(index);
    } catch (error) {
      if (!(error instanceof EndpointError) || !error.isRetryable || index >= maxRetries) {
        throw error;
      }
      const asked = error.retryAfterMs;
      if (asked !== undefined && asked > (options.maxRetryAfterMs ?? 60_000)) throw error;
      const delay = asked ?? backoffDelay(index, options);
      if (context.deadline !== undefined && now() + delay >= context.deadline) throw error;
      await sleep(delay, context.signal);
    }
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
