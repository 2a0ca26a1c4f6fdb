/**
 * The client side of bench/_mock-server-child.ts: starts the mock server in
 * a child process and asks it for counters and the policy's report.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MockCounters } from '../src/testing/index.js';

const here = dirname(fileURLToPath(import.meta.url));

export interface ChildServer {
  url: string;
  /** The server's counters and its process's CPU time since the last reset. */
  counters(): Promise<MockCounters & { cpuMs: number }>;
  /** What the policy module's `report()` returns. */
  report<T>(): Promise<T>;
  /** Zeroes the counters and calls the policy module's `reset()`. */
  reset(): Promise<void>;
  close(): void;
}

export async function startChildServer(
  options: { latencyMs?: number; policyModule?: string; busyWait?: boolean } = {},
): Promise<ChildServer> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_LATENCY_MS: String(options.latencyMs ?? 0),
    BENCH_BUSY_WAIT: options.busyWait === false ? '0' : '1',
  };
  if (options.policyModule) env.BENCH_POLICY = options.policyModule;
  const child = fork(join(here, '_mock-server-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env,
  });
  const ask = <T>(message: string, key: string) => request<T>(child, message, key);
  const url = await ask<string>('', 'url');
  return {
    url,
    counters: () => ask('counters', 'counters'),
    report: <T>() => ask<T>('report', 'report'),
    reset: async () => {
      await ask('reset', 'reset');
    },
    close: () => child.send('close'),
  };
}

function request<T>(child: ChildProcess, message: string, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`the mock server process exited (code ${code})`));
    const listener = (reply: Record<string, unknown>) => {
      if (key in reply) {
        child.off('message', listener);
        child.off('exit', onExit);
        resolve(reply[key] as T);
      }
    };
    child.on('message', listener);
    child.once('exit', onExit);
    if (message) child.send(message);
  });
}
