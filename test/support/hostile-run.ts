/**
 * One hostile run, end to end: the built CLI as the host (a child process, so it
 * can be killed, handed descriptors and measured), the mock server scripting the
 * model's replies (hostile code in ```repl fences), the real worker. Sentinels are
 * planted where a hostile model would look (a fake key and a plain value in the
 * host's environment, a 0600 file) and searched for everywhere the run leaves
 * text: stdout, stderr, every file in its log folder, every request the server
 * received (the Authorization header aside: the key is meant to go there). After
 * the run, no process of it may be left: workers are found by the scratch folder
 * in their environment or working directory, which lies in a temp folder of the run.
 */
import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { MockReply, MockRequest, MockServer } from '../../src/testing/index.js';
import { startMockServer } from '../../src/testing/index.js';
import type { TrajectoryEvent } from '../../src/trace/events.js';
import { parseTrajectory } from '../../src/trace/reader.js';
import { CLI_MAIN, writeMockProfile } from './run-built-cli.js';

/** What the hostile code may name; `{{NAME}}` in a reply is replaced by the value. */
export interface HostilePlaceholders {
  /** The 0600 file holding FILE_SENTINEL. */
  PRIVATE: string;
  /** The host's pid (the CLI process). */
  HOST_PID: string;
  /** The run's folder (context, logs, the private file). */
  DIR: string;
  /** The log folder. */
  LOGDIR: string;
}

export interface HostileRunOptions {
  /** Folder name under .artifacts/containment. */
  name: string;
  /** The root model's reply to its n-th request (1-based); `undefined`: FINAL(done). */
  root: (n: number, request: MockRequest) => MockReply | string | undefined;
  /** The sub model's reply (llm_query); default `sub answer`. */
  sub?: (request: MockRequest) => MockReply | string;
  /** More `reclamo run` flags. */
  flags?: string[];
  /** More profile settings (e.g. `exec_timeout`). */
  settings?: Record<string, number | string>;
  /** The context: a path, or text written to context.txt. Default a small text. */
  context?: { path: string } | { text: string };
  /** The log folder (default `runs` in the run's folder); pass one to share it between runs. */
  logDir?: string;
  /** How long the run may take; it is killed (and the test fails) past twice this. */
  boundMs: number;
  /** stdio for the host beyond 0-2 (e.g. an fd 9 on a private file). */
  extraStdio?: StdioOptions extends (infer T)[] ? T[] : never;
  /** Runs while the host runs (e.g. kill it); the run waits for it. */
  during?: (host: ChildProcess, server: MockServer) => Promise<void>;
}

export interface HostileRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** The root RLM's trajectory events ([] when none was written). */
  root: TrajectoryEvent[];
  /** Every trajectory in the log folder, by file name. */
  trajectories: Record<string, TrajectoryEvent[]>;
  requests: MockRequest[];
  /** Where a sentinel turned up (empty when nothing leaked). */
  leaks: string[];
  /** Processes of the run still alive after it ended (pid and command line). */
  survivors: string[];
  /** The host's highest resident memory while it ran, in bytes. */
  peakRssBytes: number;
  dir: string;
  logDir: string;
}

const ARTIFACTS = resolve('.artifacts/containment');

/** Fresh sentinels per test process. */
export const SENTINEL = {
  key: `sk-hostile-${randomBytes(8).toString('hex')}`,
  env: `env-sentinel-${randomBytes(8).toString('hex')}`,
  file: `file-sentinel-${randomBytes(8).toString('hex')}`,
};

/** A mock server whose policy each run swaps in. */
export interface HostileServer {
  server: MockServer;
  use(policy: (request: MockRequest) => MockReply | string): void;
}

/** Starts a mock server whose policy is swapped per run. */
export async function hostileServer(): Promise<HostileServer> {
  let policy: (request: MockRequest) => MockReply | string = () => 'FINAL(idle)';
  const server = await startMockServer({ policy: (r) => policy(r) });
  return { server, use: (p) => (policy = p) };
}

/** One mock server for a test file (started before its tests, closed after); call at top level. */
export function serverForFile(): () => HostileServer {
  let served: HostileServer | undefined;
  beforeAll(async () => {
    served = await hostileServer();
  });
  afterAll(() => served?.server.close());
  return () => {
    if (!served) throw new Error('the hostile mock server has not started');
    return served;
  };
}

/** Runs one hostile run against `server`; see the file comment. */
export async function hostileRun(served: HostileServer, o: HostileRunOptions): Promise<HostileRun> {
  const dir = join(ARTIFACTS, o.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const logDir = o.logDir ?? join(dir, 'runs');
  const privateFile = join(dir, 'private.txt');
  writeFileSync(privateFile, `profile secret: ${SENTINEL.file}\n`, { mode: 0o600 });
  chmodSync(privateFile, 0o600);
  const context = o.context && 'path' in o.context ? o.context.path : join(dir, 'context.txt');
  if (!o.context || 'text' in o.context) {
    writeFileSync(
      context,
      o.context && 'text' in o.context ? o.context.text : 'line one\nline two\n',
    );
  }
  // The worker's scratch goes here: a folder every uid can traverse (the checkout may be 0700).
  const tmp = mkdtempSync(join(tmpdir(), 'reclamo-hostile-'));
  chmodSync(tmp, 0o711);
  const profile = writeMockProfile(dir, {
    baseUrl: served.server.url,
    file: 'profile.toml',
    apiKeyEnv: 'HOSTILE_KEY',
    settings: { concurrency: 4, context_tokens: 32768, ...o.settings },
  });
  const places: HostilePlaceholders = {
    PRIVATE: privateFile,
    HOST_PID: '',
    DIR: dir,
    LOGDIR: logDir,
  };
  const fill = (reply: MockReply | string): MockReply | string => {
    const sub = (text: string) =>
      text.replace(/\{\{(\w+)\}\}/g, (m, k: string) => places[k as keyof HostilePlaceholders] ?? m);
    return typeof reply === 'string'
      ? sub(reply)
      : { ...reply, ...(reply.content ? { content: sub(reply.content) } : {}) };
  };
  const before = served.server.requests.length;
  let rootCalls = 0;
  served.use((request) => {
    if (request.model !== 'root-model') return fill(o.sub?.(request) ?? 'sub answer');
    rootCalls += 1;
    return fill(o.root(rootCalls, request) ?? 'FINAL(done)');
  });

  const started = Date.now();
  const host = spawn(
    process.execPath,
    [
      CLI_MAIN,
      'run',
      '--profile',
      'mock',
      '--log-dir',
      logDir,
      '--context',
      context,
      '-q',
      'What does the context say?',
      ...(o.flags ?? []),
    ],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: dir,
        TMPDIR: tmp,
        RECLAMO_PROFILES: profile,
        HOSTILE_KEY: SENTINEL.key,
        HOSTILE_NOTE: SENTINEL.env,
      },
      stdio: ['ignore', 'pipe', 'pipe', ...(o.extraStdio ?? [])],
    },
  );
  places.HOST_PID = String(host.pid);
  let stdout = '';
  let stderr = '';
  host.stdout?.on('data', (d) => (stdout += d));
  host.stderr?.on('data', (d) => (stderr += d));
  let peakRssBytes = 0;
  const sampler = setInterval(() => {
    peakRssBytes = Math.max(peakRssBytes, rssOf(host.pid));
  }, 50);
  const killer = setTimeout(() => host.kill('SIGKILL'), 2 * o.boundMs);
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    host.on('close', (code, signal) => done({ code, signal })),
  );
  await o.during?.(host, served.server);
  const { code, signal } = await ended;
  const ms = Date.now() - started;
  clearTimeout(killer);
  clearInterval(sampler);

  const marker = join(tmp, 'reclamo-sandbox-');
  const survivors = await settleSurvivors(marker);
  const trajectories: Record<string, TrajectoryEvent[]> = {};
  const texts: Record<string, string> = { stdout, stderr };
  for (const file of new Set([...walk(dir), ...walk(logDir)])) {
    if (file === privateFile || file === profile) continue;
    const text = readFileSync(file, 'utf8');
    texts[file] = text;
    if (file.endsWith('.jsonl') && !file.endsWith('.sft.jsonl')) {
      trajectories[file] = parseTrajectory(text).events;
    }
  }
  const requests = served.server.requests.slice(before);
  requests.forEach((r, i) => {
    const { authorization: _, ...headers } = r.headers;
    texts[`request ${i}`] = JSON.stringify({ body: r.body, headers });
  });
  const leaks: string[] = [];
  for (const [where, text] of Object.entries(texts)) {
    for (const [kind, value] of Object.entries(SENTINEL)) {
      if (text.includes(value)) leaks.push(`${kind} sentinel in ${where}`);
    }
  }
  const root =
    Object.values(trajectories).find((events) => {
      const meta = events[0];
      return meta?.type === 'metadata' && meta.depth === 0;
    }) ?? [];
  rmSync(tmp, { recursive: true, force: true });
  return {
    code,
    signal,
    stdout,
    stderr,
    ms,
    root,
    trajectories,
    requests,
    leaks,
    survivors,
    peakRssBytes,
    dir,
    logDir,
  };
}

function rssOf(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

function walk(dir: string): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else out.push(path);
  }
  return out;
}

/** Processes whose environment or working directory lies in a scratch folder under `marker`. */
export function processesOf(marker: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'latin1');
      const cwd = (() => {
        try {
          return readlinkSync(`/proc/${name}/cwd`);
        } catch {
          return '';
        }
      })();
      if (!environ.includes(marker) && !cwd.startsWith(marker)) continue;
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'latin1').replace(/\0/g, ' ').trim();
      const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1];
      if (state !== 'Z') found.push(`${name}: ${cmd}`);
    } catch {
      // gone, or not readable
    }
  }
  return found;
}

/** The run's processes after a short grace (the kernel reaps a killed tree in milliseconds). */
async function settleSurvivors(marker: string): Promise<string[]> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const left = processesOf(marker);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A ```repl fence around Python code. */
export function repl(code: string): string {
  return `\`\`\`repl\n${code}\n\`\`\``;
}

/** The text of the last user message of a request (where REPL output arrives). */
export function lastUserText(request: MockRequest): string {
  return request.messages.at(-1)?.content ?? '';
}

/** The containment facts every hostile test asserts, in one object for a readable diff. */
export function containment(run: HostileRun, boundMs: number) {
  return {
    leaks: run.leaks,
    survivors: run.survivors,
    endsWithFinal: run.root.at(-1)?.type === 'final',
    withinBound: run.ms < boundMs,
  };
}

/** What every hostile run must show. */
export const CONTAINED = { leaks: [], survivors: [], endsWithFinal: true, withinBound: true };

/** True when the request belongs to the child RLM asked `question`. */
export function isChildAsked(request: MockRequest, question: string): boolean {
  return request.messages.some((m) => m.role === 'user' && m.content.includes(question));
}
