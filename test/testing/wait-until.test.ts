import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/testing/index.js';
import { waitUntil } from '../../src/testing/wait-until.js';

describe('waitUntil', () => {
  for (const busy of [false, true]) {
    it(`never resolves before the target (${busy ? 'busy' : 'timer'} wait)`, async () => {
      for (const ms of [0, 1, 3, 12]) {
        const target = performance.now() + ms;
        await waitUntil(target, busy);
        expect(performance.now()).toBeGreaterThanOrEqual(target);
      }
    });
  }

  it("a busy-waiting mock server holds each reply for its latency, counted from the request's arrival", async () => {
    const server = await startMockServer({ policy: () => 'ok', latencyMs: 15, busyWait: true });
    try {
      const started = performance.now();
      const res = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'q' }] }),
      });
      expect(res.status).toBe(200);
      await res.text();
      expect(performance.now() - started).toBeGreaterThanOrEqual(15);
    } finally {
      await server.close();
    }
  });
});
