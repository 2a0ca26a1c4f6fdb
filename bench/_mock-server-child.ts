/**
 * Runs the mock server in its own process for bench/endpoint.ts, so the
 * client's CPU time can be measured apart from the server's. Talks over IPC:
 * sends `{ url }` once listening, answers `counters` / `reset` / `close`.
 */
import { startMockServer } from '../src/testing/index.js';

const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? '20');
const server = await startMockServer({ policy: () => 'ok', latencyMs, record: false });
let cpu = process.cpuUsage();
process.send?.({ url: server.url });
process.on('message', async (message: string) => {
  if (message === 'counters') {
    const used = process.cpuUsage(cpu);
    process.send?.({ counters: { ...server.counters, cpuMs: (used.user + used.system) / 1000 } });
  }
  if (message === 'reset') {
    server.resetCounters();
    cpu = process.cpuUsage();
    process.send?.({ reset: true });
  }
  if (message === 'close') {
    await server.close();
    process.exit(0);
  }
});
