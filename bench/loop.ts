/**
 * Loop benchmark: `npm run bench -- loop [turn|needle|sizes|batched|gigabyte ...] [--skip-300mb]`.
 *
 * Against the mock OpenAI-compatible server (scripted answers, real HTTP) and
 * the real Python worker, prints:
 * - the harness's own time per root turn (model excluded),
 * - the root request's size for a 1 MB and a 300 MB context,
 * - needle in 1,000,000 lines: time inside run() and for a whole `reclamo run` process,
 * - needle in 300 MB: time inside run() and the peak memory of all processes,
 * - 200 llm_query_batched items at 50 ms with endpoint concurrency 16 and 200
 *   (this section's server runs in its own process),
 * - needle in 1 GB for a whole `reclamo run` process, only when `gigabyte` is named.
 * Build first (`npm run build`): the process timing spawns dist/cli/main.js.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProfile } from '../src/config/index.js';
import { createEndpointPool } from '../src/lm/endpoints.js';
import { run } from '../src/rlm/run.js';
import type { MockPolicy, MockRequest } from '../src/testing/index.js';
import { startMockServer } from '../src/testing/index.js';
import { readTrajectory } from '../src/trace/reader.js';
import { ITEMS, SUB_DELAY_MS } from './_batched-policy.js';
import { startChildServer } from './_child-server.js';

const ART = resolve('.artifacts/bench/loop');
const HERE = dirname(fileURLToPath(import.meta.url));
mkdirSync(ART, { recursive: true });
const skip300 = process.argv.includes('--skip-300mb');
const NEEDLE = 'the passphrase is tangerine-4242';

/** A needle file of `lines` lines (about 31 bytes each), written once and reused. */
async function needleFile(name: string, lines: number): Promise<string> {
  const path = join(ART, name);
  if (existsSync(path)) return path;
  const out = createWriteStream(path);
  const at = Math.floor(lines * 0.73);
  let buf = '';
  for (let i = 0; i < lines; i++) {
    buf += i === at ? `${NEEDLE}\n` : `${String(i).padStart(9, '0')} amber basil cedar dune\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
  return path;
}

/** A file of `bytes` characters (filler lines) with the needle inside. */
async function sizedFile(name: string, bytes: number): Promise<string> {
  return needleFile(name, Math.ceil(bytes / 32));
}

const GREP =
  "```repl\nimport re\nm = re.search(r'passphrase is (\\S+)', context)\nprint(m.group(1))\n```";

/** Root: grep, then FINAL with what the grep printed. Sub: a fixed answer after `subDelayMs`. */
function needlePolicy(onRootBody?: (bytes: number) => void, subDelayMs = 0): MockPolicy {
  return (req: MockRequest) => {
    if (req.model === 'sub-model') return { content: 'sub answer', delayMs: subDelayMs };
    const last = req.messages.at(-1)?.content ?? '';
    if (req.messages.length === 2) {
      onRootBody?.(JSON.stringify(req.body).length);
      return GREP;
    }
    const found = /tangerine-\d+/.exec(last)?.[0];
    return `FINAL(${found ?? 'not found'})`;
  };
}

/**
 * An interpreter named in the bench profile (the system one when present). On a machine where `python3` is a version-manager shim (pyenv),
 * naming it saves each `reclamo run` process the shim's start-up; the needle
 * section also times the process with the plain `python3` for comparison.
 * Set RECLAMO_BENCH_PYTHON to choose another.
 */
const PYTHON =
  process.env.RECLAMO_BENCH_PYTHON ??
  (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

async function profileFor(
  url: string,
  concurrency: number,
  extra = `python = "${PYTHON}"`,
): Promise<string> {
  const file = join(ART, `profile-${concurrency}${extra === '' ? '-plain' : ''}.toml`);
  writeFileSync(
    file,
    `[profiles.bench]
base_url = "${url}"
api = "openai"
concurrency = ${concurrency}
context_tokens = 32768
max_subcalls_per_exec = 256
max_subcalls_per_run = 1000
${extra}
[profiles.bench.root]
model = "root-model"
[profiles.bench.sub]
model = "sub-model"
`,
  );
  return file;
}

async function withServer<T>(
  policy: MockPolicy,
  concurrency: number,
  fn: (profileFile: string, url: string) => Promise<T>,
): Promise<T> {
  const server = await startMockServer({ policy, record: false });
  try {
    return await fn(await profileFor(server.url, concurrency), server.url);
  } finally {
    await server.close();
  }
}

async function runWith(profileFile: string, context: string, query: string) {
  const env = { ...process.env, RECLAMO_PROFILES: profileFile };
  const profile = await loadProfile({ profile: 'bench', env });
  const started = performance.now();
  const result = await run({ query, context, profile, env, logDir: join(ART, 'runs') });
  return { result, ms: performance.now() - started };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

const fmtMs = (ms: number) => `${ms.toFixed(ms < 10 ? 3 : 1)} ms`;
const fmtMb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;

// 1. Harness time per root turn.
async function perTurn(): Promise<void> {
  const ctx = await sizedFile('ctx-1mb.txt', 1_000_000);
  const turns = 60;
  const policy: MockPolicy = (req) => {
    const n = req.messages.filter((m) => m.role === 'assistant').length;
    return n + 1 >= turns ? 'FINAL(done)' : `\`\`\`repl\nx = ${n}\nprint(x)\n\`\`\``;
  };
  await withServer(policy, 4, async (file) => {
    const env = { ...process.env, RECLAMO_PROFILES: file };
    const profile = await loadProfile({ profile: 'bench', env });
    const { result } = await (async () => ({
      result: await run({
        query: 'q',
        context: ctx,
        profile,
        env,
        maxIterations: turns,
        logDir: join(ART, 'runs'),
      }),
    }))();
    const { events } = await readTrajectory(result.trajectoryPath);
    const own = events
      .filter((e) => e.type === 'iteration')
      .map((e) => (e.type === 'iteration' ? e.timings.harnessMs + e.timings.replMs : 0));
    const harnessOnly = events
      .filter((e) => e.type === 'iteration')
      .map((e) => (e.type === 'iteration' ? e.timings.harnessMs : 0));
    console.log(
      `per root turn (${own.length} turns): harness incl. REPL round trip median ${fmtMs(median(own))}, p90 ${fmtMs(
        [...own].sort((a, b) => a - b)[Math.floor(own.length * 0.9)] ?? 0,
      )}; harness alone median ${fmtMs(median(harnessOnly))}  [target: median < 2 ms]`,
    );
  });
}

// 2 and 4. Root request size 1 MB vs 300 MB; needle at 300 MB with peak memory.
async function sizes(): Promise<void> {
  const small = await sizedFile('ctx-1mb.txt', 1_000_000);
  let smallBytes = 0;
  await withServer(
    needlePolicy((b) => (smallBytes = b)),
    4,
    (f) => runWith(f, small, 'Find the passphrase.'),
  );
  if (skip300) {
    console.log(`root request: 1 MB context ${smallBytes} bytes (300 MB skipped)`);
    return;
  }
  const big = await sizedFile('ctx-300mb.txt', 300_000_000);
  const bigSize = statSync(big).size;
  let bigBytes = 0;
  const sampler = new TreeMemory(process.pid);
  sampler.start();
  const { result, ms } = await withServer(
    needlePolicy((b) => (bigBytes = b)),
    4,
    (f) => runWith(f, big, 'Find the passphrase.'),
  );
  const peak = sampler.stop();
  // The harness alone: a `reclamo run` process and its worker (the mock server stays here).
  const cli = await withServer(needlePolicy(), 4, async (file) => {
    const child = spawnRun(file, big, 'Find the passphrase.');
    const tree = new TreeMemory(child.pid ?? 0);
    tree.start();
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    await once(child, 'exit');
    return { peak: tree.stop(), out: out.trim() };
  });
  const diff = Math.abs(bigBytes - smallBytes) / smallBytes;
  console.log(
    `root request: 1 MB context ${smallBytes} bytes, 300 MB context ${bigBytes} bytes (differ by ${(diff * 100).toFixed(2)}%)  [target: within 1%]`,
  );
  console.log(
    `needle in ${fmtMb(bigSize)}: ${result.answer} in ${fmtMs(ms)} inside run(), ${result.turns} turns  [target: < 3 s]`,
  );
  console.log(
    `  peak memory, \`reclamo run\` process + worker: ${fmtMb(cli.peak.sum)} sampled, sum of per-process peaks ${fmtMb(cli.peak.hwmSum)} = ${(cli.peak.hwmSum / bigSize).toFixed(2)}x the context [${cli.peak.each}] (answer ${cli.out})  [target: < 2.5x]`,
  );
  console.log(
    `  peak memory, this bench process (tsx, mock server, run()) + worker: sum of per-process peaks ${fmtMb(peak.hwmSum)} = ${(peak.hwmSum / bigSize).toFixed(2)}x`,
  );
}

// 3. Needle in 1,000,000 lines: inside the harness and as a whole process.
async function needle1m(): Promise<void> {
  const ctx = await needleFile('needle-1m.txt', 1_000_000);
  const size = statSync(ctx).size;
  await withServer(needlePolicy(), 4, async (file, url) => {
    const times: number[] = [];
    let answer = '';
    for (let i = 0; i < 5; i++) {
      const { result, ms } = await runWith(file, ctx, 'Which line holds the passphrase?');
      times.push(ms);
      answer = result.answer;
    }
    console.log(
      `needle in 1,000,000 lines (${fmtMb(size)}): ${answer}; inside run() median of 5 ${fmtMs(median(times))} (min ${fmtMs(Math.min(...times))})  [target: < 250 ms]`,
    );
    const procs = await timeProcesses(file, ctx, 5);
    console.log(
      `needle in 1,000,000 lines, whole \`reclamo run\` process (profile names ${PYTHON}): median of 5 ${fmtMs(median(procs))} (min ${fmtMs(Math.min(...procs))})  [target: < 1 s]`,
    );
    const plain = await timeProcesses(await profileFor(url, 4, ''), ctx, 3);
    console.log(
      `  the same with python = python3 from PATH (here a pyenv shim): median of 3 ${fmtMs(median(plain))}`,
    );
  });
}

/** A `reclamo run` process on the bench profile (built CLI), stdout and stderr piped. */
function spawnRun(profileFile: string, ctx: string, question: string) {
  return spawn(
    process.execPath,
    [
      'dist/cli/main.js',
      'run',
      '--profile',
      'bench',
      '--context',
      ctx,
      '-q',
      question,
      '--log-dir',
      join(ART, 'runs'),
    ],
    { env: { ...process.env, RECLAMO_PROFILES: profileFile }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/** Wall time of whole `reclamo run` processes on the needle. */
async function timeProcesses(profileFile: string, ctx: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const child = spawnRun(profileFile, ctx, 'Which line holds the passphrase?');
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const [code] = await once(child, 'exit');
    times.push(performance.now() - started);
    if (code !== 0 || !out.includes('tangerine'))
      throw new Error(`reclamo run failed: exit ${code}, ${out}`);
  }
  return times;
}

// 6. Needle in 1 GB (opt-in: `npm run bench -- loop gigabyte`; writes a 1 GB file under .artifacts).
async function gigabyte(): Promise<void> {
  const big = await sizedFile('ctx-1gb.txt', 1_000_000_000);
  const size = statSync(big).size;
  await withServer(needlePolicy(), 4, async (file) => {
    const times: number[] = [];
    const peaks: number[] = [];
    let answer = '';
    // The first run reads the file from disk; the median of the rest reads it from the page cache.
    for (let i = 0; i < 4; i++) {
      const started = performance.now();
      const child = spawnRun(file, big, 'Find the passphrase.');
      const tree = new TreeMemory(child.pid ?? 0);
      tree.start();
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const [code] = await once(child, 'exit');
      times.push(performance.now() - started);
      peaks.push(tree.stop().hwmSum);
      answer = out.trim();
      if (code !== 0) throw new Error(`reclamo run failed on 1 GB: exit ${code}`);
    }
    console.log(
      `needle in ${fmtMb(size)}, whole \`reclamo run\` process: first run ${fmtMs(times[0] ?? 0)}, then median of 3 ${fmtMs(median(times.slice(1)))}; peak memory of the process and its worker ${fmtMb(Math.max(...peaks))} = ${(Math.max(...peaks) / size).toFixed(2)}x the context (answer ${answer})`,
    );
  });
}

// 5. 200 batched items at 50 ms each, the server in its own process (as a real one is).
async function batched(concurrency: number, busyWait = true): Promise<void> {
  const ctx = await sizedFile('ctx-1mb.txt', 1_000_000);
  const server = await startChildServer({
    policyModule: join(HERE, '_batched-policy.ts'),
    busyWait,
  });
  const runs = Number(process.env.BENCH_RUNS ?? '5');
  try {
    const file = await profileFor(server.url, concurrency);
    const env = { ...process.env, RECLAMO_PROFILES: file };
    // Warm both processes up (JIT, connections) with one run, as a user's second run would be.
    await runWith(file, ctx, 'batch');
    const inRun: number[] = [];
    let subcalls = 0;
    let seen = 0;
    for (let i = 0; i < runs; i++) {
      await server.reset();
      const { result } = await runWith(file, ctx, 'batch');
      const report = await server.report<{ spanMs: number; subcalls: number }>();
      inRun.push(report.spanMs);
      subcalls = result.subcalls;
      seen = report.subcalls;
    }
    // The same 200 requests straight through the endpoint pool, no harness: the floor
    // this machine allows right now (a loaded machine moves both numbers together).
    const pool = createEndpointPool(await loadProfile({ profile: 'bench', env }), { env });
    const alone: number[] = [];
    for (let i = 0; i < runs; i++) {
      await server.reset();
      await Promise.all(
        Array.from({ length: ITEMS }, (_, j) =>
          pool.sub.doGenerate({ messages: [{ role: 'user', content: `item ${j}` }] }),
        ),
      );
      alone.push((await server.report<{ spanMs: number }>()).spanMs);
    }
    const ideal = Math.ceil(ITEMS / concurrency) * SUB_DELAY_MS;
    const over = (ms: number) => `${(((ms - ideal) / ideal) * 100).toFixed(1)}%`;
    console.log(
      `${ITEMS} llm_query_batched items at ${SUB_DELAY_MS} ms, concurrency ${concurrency}${busyWait ? '' : ', server sleeping between replies'}: span median of ${runs} runs ${fmtMs(median(inRun))} (${over(median(inRun))} over the ideal ${ideal} ms; min ${fmtMs(Math.min(...inRun))}, max ${fmtMs(Math.max(...inRun))}), ${subcalls} sub-calls per run (server saw ${seen}); the same requests through the endpoint pool alone: median ${fmtMs(median(alone))} (min ${fmtMs(Math.min(...alone))})`,
    );
  } finally {
    server.close();
  }
}

/** Samples the RSS of this process and all its descendants; keeps each one's VmHWM. */
class TreeMemory {
  constructor(private readonly root: number) {}
  private timer: NodeJS.Timeout | undefined;
  private maxSum = 0;
  private readonly hwm = new Map<number, number>();
  private readonly names = new Map<number, string>();

  start(): void {
    this.timer = setInterval(() => this.sample(), 20);
  }

  stop(): { sum: number; hwmSum: number; each: string } {
    clearInterval(this.timer);
    this.sample();
    let hwmSum = 0;
    for (const v of this.hwm.values()) hwmSum += v;
    const each = [...this.hwm.entries()]
      .map(([pid, v]) => `${this.names.get(pid) ?? pid} ${fmtMb(v)}`)
      .join(', ');
    return { sum: this.maxSum, hwmSum, each };
  }

  private sample(): void {
    const pids = descendants(this.root);
    let sum = 0;
    for (const pid of pids) {
      const status = read(`/proc/${pid}/status`);
      const rss = kb(status, 'VmRSS');
      const hwm = kb(status, 'VmHWM');
      sum += rss;
      if (hwm > (this.hwm.get(pid) ?? 0)) this.hwm.set(pid, hwm);
      const name = /Name:\s+(\S+)/.exec(status)?.[1];
      if (name) this.names.set(pid, name);
    }
    if (sum > this.maxSum) this.maxSum = sum;
  }
}

function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    parent.set(Number(name), ppid);
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    for (const [pid, ppid] of parent) if (ppid === out[i]) out.push(pid);
  }
  return out;
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function kb(status: string, key: string): number {
  const m = new RegExp(`${key}:\\s+(\\d+) kB`).exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

console.log(`reclamo loop bench (node ${process.version}, ${new Date().toISOString()})`);
// Sections to run: all by default, or any of `turn needle sizes batched` as arguments.
const picked = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const want = (name: string) => picked.length === 0 || picked.includes(name);
if (want('turn')) await perTurn();
if (want('needle')) await needle1m();
if (want('sizes')) await sizes();
if (want('batched')) {
  await batched(16);
  await batched(200);
  // The same with a server that sleeps on timers while replies wait: each wake-up costs
  // it (and so the span) up to a millisecond on a virtual machine.
  await batched(16, false);
}
// Only when asked for by name: it writes a 1 GB file.
if (picked.includes('gigabyte')) await gigabyte();
