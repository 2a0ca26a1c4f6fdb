import { describe, expect, it } from 'vitest';
import { EndpointError } from '../../src/errors.js';
import { backoffDelay, isRetryableStatus, parseRetryAfter, withRetry } from '../../src/lm/retry.js';
import { Semaphore } from '../../src/lm/semaphore.js';

const retryable = () => new EndpointError('busy', 'http://x', 503, true);

describe('retry policy', () => {
  it('classifies statuses', () => {
    expect([408, 409, 429, 500, 502, 503, 529].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 422].some(isRetryableStatus)).toBe(false);
  });

  it('parses Retry-After as seconds, an HTTP date, or retry-after-ms', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(null, '250')).toBe(250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', null, now)).toBe(5000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('backs off exponentially with jitter between half and the full step, capped', () => {
    const options = { initialDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(0, { ...options, random: () => 0 })).toBe(50);
    expect(backoffDelay(2, { ...options, random: () => 0.999999 })).toBeCloseTo(400, 0);
    expect(backoffDelay(10, { ...options, random: () => 0.999999 })).toBeCloseTo(1000, 0);
  });

  it('stops retrying when the next wait would pass the deadline', async () => {
    let attempts = 0;
    const now = () => 1000;
    const error = await withRetry(
      async () => {
        attempts++;
        throw retryable();
      },
      { retry: { initialDelayMs: 100, random: () => 0.5 }, deadline: 1050, now },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EndpointError);
    expect(attempts).toBe(1);
  });

  it('gives up at once when Retry-After asks for more than the cap', async () => {
    let attempts = 0;
    const asked = new EndpointError('slow down', 'http://x', 429, true, { retryAfterMs: 120_000 });
    await expect(
      withRetry(async () => {
        attempts++;
        throw asked;
      }),
    ).rejects.toBe(asked);
    expect(attempts).toBe(1);
  });
});

describe('Semaphore', () => {
  it('serves waiters in order and drops one whose signal aborts', async () => {
    const semaphore = new Semaphore(1);
    const order: string[] = [];
    const release = await semaphore.acquire();
    const controller = new AbortController();
    const a = semaphore.acquire().then((r) => {
      order.push('a');
      r();
    });
    const b = semaphore.acquire(controller.signal).catch(() => order.push('b aborted'));
    const c = semaphore.acquire().then((r) => {
      order.push('c');
      r();
    });
    expect(semaphore.waiting).toBe(3);
    controller.abort(new Error('stop'));
    expect(semaphore.waiting).toBe(2);
    release();
    release(); // a second release is ignored
    await Promise.all([a, b, c]);
    expect(order).toEqual(['b aborted', 'a', 'c']);
    expect(semaphore.inUse).toBe(0);
    expect(semaphore.waiting).toBe(0);
  });
});
