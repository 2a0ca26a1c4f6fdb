/**
 * Sleeps that end on time, for the mock server's latency. Node's timers fire
 * up to a millisecond late, which on a 20 ms reply is 5% of the latency a
 * benchmark is trying to hold fixed. The default waits with a timer for all
 * but the last millisecond, then yields to the event loop until the moment.
 * `busy` yields the whole time instead, so the process never sleeps while a
 * reply is pending: waking a sleeping process costs 0.5 to 1 ms on a virtual
 * machine, and a real inference server under load does not sleep either.
 */
import { performance } from 'node:perf_hooks';

/** Resolves once `performance.now()` reaches `target`, usually within 0.1 ms. */
export function waitUntil(target: number, busy = false): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const left = target - performance.now();
      if (left <= 0) resolve();
      else if (!busy && left > 1.5) setTimeout(check, Math.floor(left - 1));
      else setImmediate(check);
    };
    check();
  });
}
