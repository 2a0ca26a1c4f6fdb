/**
 * Runs the mock server in its own process, so a benchmark measures the
 * client's CPU time and event loop apart from the server's (a real model
 * server is another process too). Started through `startChildServer`
 * (bench/_child-server.ts). Environment: BENCH_LATENCY_MS (added to every
 * reply), BENCH_POLICY (a module exporting `policy` and optionally `report`
 * and `reset`; default: every reply is "ok"), BENCH_BUSY_WAIT (default on:
 * the server stays awake while replies are pending, see wait-until.ts; `0`
 * lets it sleep on timers). Talks over IPC: sends `{ url }`
 * once listening, answers `counters`, `report`, `reset` and `close`.
 */
import { pathToFileURL } from 'node:url';
import { type MockPolicy, startMockServer } from '../src/testing/index.js';

interface PolicyModule {
  policy: MockPolicy;
  report?: () => unknown;
  reset?: () => void;
}

const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? '0');
const file = process.env.BENCH_POLICY;
const module: PolicyModule = file
  ? ((await import(pathToFileURL(file).href)) as PolicyModule)
  : { policy: () => 'ok' };
const server = await startMockServer({
  policy: module.policy,
  latencyMs,
  record: false,
  busyWait: process.env.BENCH_BUSY_WAIT !== '0',
});
let cpu = process.cpuUsage();
process.send?.({ url: server.url });
process.on('message', async (message: string) => {
  if (message === 'counters') {
    const used = process.cpuUsage(cpu);
    process.send?.({ counters: { ...server.counters, cpuMs: (used.user + used.system) / 1000 } });
  }
  if (message === 'report') process.send?.({ report: module.report?.() ?? null });
  if (message === 'reset') {
    server.resetCounters();
    module.reset?.();
    cpu = process.cpuUsage();
    process.send?.({ reset: true });
  }
  if (message === 'close') {
    await server.close();
    process.exit(0);
  }
});
