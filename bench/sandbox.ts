/**
 * The Python sandbox's numbers: exec round trip, host-call bridge overhead, batched
 * calls, and loading large contexts (time, worker peak/steady memory, host memory).
 * `npm run bench -- sandbox [--skip-1gb]` prints one line per measurement.
 */

import { mkdirSync } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createPythonSandbox, type PythonSandbox } from '../src/index.js';
import type { HostCall } from '../src/sandbox/sandbox.js';

const MB = 1024 * 1024;
const dir = join(process.cwd(), '.artifacts/bench-sandbox');
mkdirSync(dir, { recursive: true });
const skip1gb = process.argv.includes('--skip-1gb');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const line = (label: string, value: string) => console.log(`${label.padEnd(44)} ${value}`);

async function statusKb(pid: number | undefined, field: string): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
}

/** Writes an ASCII file of `bytes` bytes: numbered log-like lines, a needle every ~1 MB. */
async function writeContext(path: string, bytes: number): Promise<void> {
  const handle = await open(path, 'w');
  const block: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    block.push(
      `${String(i).padStart(8, '0')} INFO request served in ${i % 97} ms by node-${i % 13}`,
    );
  }
  block.push('needle: the passphrase is violet-otter');
  const chunk = Buffer.from(`${block.join('\n')}\n`);
  let written = 0;
  while (written < bytes) {
    const piece = chunk.subarray(0, Math.min(chunk.length, bytes - written));
    await handle.write(piece);
    written += piece.length;
  }
  await handle.close();
}

async function execTimes(sb: PythonSandbox, code: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await sb.exec(code);
    times.push(performance.now() - t);
    if (r.error) throw new Error(`${code}: ${r.error.type} ${r.error.message}`);
  }
  return times;
}

// 1. Round trip and bridge overhead.
{
  const sb = await createPythonSandbox({
    context: { kind: 'text', text: 'small' },
    onHostCall: async (call: HostCall) =>
      call.kind === 'llm_query_batched'
        ? Promise.all(
            call.prompts.map(async (p) => {
              await sleep(10);
              return p;
            }),
          )
        : 'ok',
  });
  console.log(`python ${sb.capabilities.python} ${sb.capabilities.pythonVersion}`);
  await execTimes(sb, 'x = 1', 200);
  const trivial = median(await execTimes(sb, 'x = 1', 1000));
  line('trivial exec round trip (median of 1000)', `${trivial.toFixed(3)} ms`);
  await execTimes(sb, 'llm_query("q")', 200);
  const oneCall = median(await execTimes(sb, 'llm_query("q")', 1000));
  line('exec with one llm_query (median of 1000)', `${oneCall.toFixed(3)} ms`);
  line('host-call bridge overhead', `${(oneCall - trivial).toFixed(3)} ms`);
  const tenCalls = median(await execTimes(sb, 'for _ in range(10): llm_query("q")', 200));
  line('per call, 10 sequential llm_query', `${((tenCalls - trivial) / 10).toFixed(3)} ms`);
  const batched = await execTimes(sb, 'r = llm_query_batched([str(i) for i in range(100)])', 20);
  line(
    '100 llm_query_batched items, 10 ms callback',
    `${median(batched).toFixed(1)} ms (median of 20)`,
  );
  await sb.close();
}

// 2. Loading contexts.
async function loadRun(bytes: number, label: string, extra?: string): Promise<void> {
  const path = join(dir, `${label}.txt`);
  await writeContext(path, bytes);
  const hostBefore = process.memoryUsage().rss;
  const t = performance.now();
  const sb = await createPythonSandbox({
    context: { kind: 'file', path },
    onHostCall: async () => 'ok',
    execTimeoutMs: 600_000,
  });
  const loadMs = performance.now() - t;
  const hostAfter = process.memoryUsage().rss;
  const pid = sb.workerPid;
  const peak = (await statusKb(pid, 'VmHWM')) * 1024;
  const steady = (await statusKb(pid, 'VmRSS')) * 1024;
  line(`${label}: start + load (${(bytes / MB).toFixed(0)} MiB)`, `${loadMs.toFixed(0)} ms`);
  line(
    `${label}: worker peak RSS`,
    `${(peak / MB).toFixed(0)} MiB = ${(peak / bytes).toFixed(2)}x`,
  );
  line(
    `${label}: worker steady RSS`,
    `${(steady / MB).toFixed(0)} MiB = ${(steady / bytes).toFixed(2)}x`,
  );
  line(
    `${label}: host RSS growth during load`,
    `${((hostAfter - hostBefore) / MB).toFixed(1)} MiB`,
  );
  if (extra) {
    const e = performance.now();
    const r = await sb.exec(extra);
    line(
      `${label}: ${extra.split('\n').pop()}`,
      `${r.stdout.trim()} in ${(performance.now() - e).toFixed(0)} ms`,
    );
    if (r.error) line(`${label}: error`, `${r.error.type}: ${r.error.message}`);
  }
  await sb.close();
  await rm(path, { force: true });
}

// Time the load alone: a sandbox with no context first, so interpreter start is separate.
{
  const t = performance.now();
  const sb = await createPythonSandbox({ context: { kind: 'none' }, onHostCall: async () => 'ok' });
  line('start with no context', `${(performance.now() - t).toFixed(0)} ms`);
  await sb.close();
}
await loadRun(100 * MB, '100MB', 'import re\nprint(len(re.findall(r"needle: .*", context)))');
if (!skip1gb) {
  await loadRun(1024 * MB, '1GB', 'import re\nprint(len(re.findall(r"needle: .*", context)))');
}
await rm(dir, { recursive: true, force: true });
