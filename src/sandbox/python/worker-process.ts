import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { SandboxError } from '../../errors.js';
import type { ContextShape } from '../sandbox.js';
import { FrameDecoder, FrameEncoder, type WorkerMessage } from './frame-codec.js';
import type { IsolationPlan } from './isolation.js';
import type { RawOutput } from './raw-output.js';
import { readShape, readWorkerFacts, type WorkerFacts } from './worker-messages.js';

/** Largest frame the host accepts from a worker. */
export const MAX_WORKER_FRAME = 64 * 1024 * 1024;

/** Everything needed to (re)launch the same worker. */
export interface WorkerLaunch {
  python: string;
  workerScript: string;
  plan: IsolationPlan;
  env: NodeJS.ProcessEnv;
  cwd: string;
  context: { kind: 'file' | 'directory'; path: string; format?: 'json' } | { kind: 'none' };
  scratch: { home: string; tmp: string; exchange: string };
  memoryLimitBytes?: number | undefined;
  /** Growth allowed after loading the context when there is no absolute limit (worker default 4 GiB). */
  memoryHeadroomBytes?: number | undefined;
  processLimit?: number | undefined;
  /** RLIMIT_FSIZE of the worker. */
  fileSizeLimitBytes: number;
  captureLimitChars: number;
  /** Bind the reserved `answer` dict; false leaves `answer` an ordinary name. */
  answerDict?: boolean;
  startTimeoutMs: number;
}

/** How a worker ended, as the sandbox reports it. */
export interface WorkerDeath {
  reason: 'crash' | 'protocol' | 'timeout';
  detail: string;
}

/** Receives what a running worker sends. */
export interface WorkerListener {
  message(worker: WorkerProcess, msg: WorkerMessage): void;
  died(worker: WorkerProcess, death: WorkerDeath): void;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function trackChild(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A worker must not outlive the host, whatever way the host ends.
    process.once('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
}

/** One generation of the Python worker: a process, its channel and its lifecycle. */
export class WorkerProcess {
  readonly shape: ContextShape;
  readonly facts: WorkerFacts;
  /** Host-namespace pid of the Python process itself (for memory readings). */
  readonly pythonPid: number | undefined;
  private dead = false;
  /** Set from the moment a kill is decided: nothing more is read from or sent to it. */
  private stopping = false;
  private killReason: WorkerDeath | undefined;
  private stderrTail = '';
  private raw: RawOutput | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly channel: Socket,
    private readonly encoder: FrameEncoder,
    ready: { shape: ContextShape; facts: WorkerFacts; pythonPid: number | undefined },
    exited: Promise<void>,
    private readonly listener: WorkerListener,
    private readonly pidNamespace: boolean,
  ) {
    this.shape = ready.shape;
    this.facts = ready.facts;
    this.pythonPid = ready.pythonPid;
    this.exited = exited;
  }

  /** Launches a worker and waits until it has loaded the context. */
  static start(launch: WorkerLaunch, listener: WorkerListener): Promise<WorkerProcess> {
    const token = randomBytes(16).toString('hex');
    const encoder = new FrameEncoder(token);
    const decoder = new FrameDecoder(token, MAX_WORKER_FRAME);
    const args = [...launch.plan.prefix, launch.python, '-I', launch.workerScript];
    const child = spawn(args[0]!, args.slice(1), {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      env: launch.env,
      cwd: launch.cwd,
    });
    trackChild(child);
    const channel = child.stdio[3] as Socket;
    const stderr = child.stderr!;
    let worker: WorkerProcess | undefined;
    let tail = '';
    stderr.on('data', (chunk: Buffer) => {
      if (worker) worker.onStderr(chunk);
      else tail = (tail + chunk.toString('utf8')).slice(-4000);
    });
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));

    return new Promise<WorkerProcess>((resolve, reject) => {
      let settled = false;
      const fail = (why: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new SandboxError(`The Python worker did not start: ${why}`));
      };
      const timer = setTimeout(
        () => fail(`no answer within ${launch.startTimeoutMs} ms (loading the context?)`),
        launch.startTimeoutMs,
      );
      child.once('error', (e) => fail(e.message));
      child.once('exit', (code, signal) => {
        if (worker) worker.onExit(code, signal);
        else fail(`it exited (${signal ?? `code ${code}`})${tail ? `: ${cleanTail(tail)}` : ''}`);
      });
      channel.on('error', () => {
        // The exit handler reports what happened.
      });
      channel.on('data', (chunk: Buffer) => {
        let messages: WorkerMessage[];
        try {
          messages = decoder.push(chunk);
        } catch (e) {
          if (worker) worker.onViolation((e as Error).message);
          else fail(`protocol error at start-up: ${(e as Error).message}`);
          return;
        }
        for (const msg of messages) {
          if (worker) {
            if (worker.alive) listener.message(worker, msg);
            continue;
          }
          if (msg.type === 'fatal') {
            fail(String(msg.error));
            return;
          }
          const shape = msg.type === 'ready' ? readShape(msg.shape) : undefined;
          const facts = msg.type === 'ready' ? readWorkerFacts(msg.facts) : undefined;
          if (!shape || !facts) {
            fail('its first message was not a valid ready message');
            return;
          }
          settled = true;
          clearTimeout(timer);
          void findPythonPid(child.pid, launch.plan.pidNamespace).then((pythonPid) => {
            worker = new WorkerProcess(
              child,
              channel,
              encoder,
              { shape, facts, pythonPid },
              exited,
              listener,
              launch.plan.pidNamespace,
            );
            worker.stderrTail = tail;
            if (child.exitCode !== null || child.signalCode !== null) {
              worker.onExit(child.exitCode, child.signalCode);
            }
            resolve(worker);
          });
        }
      });
      channel.write(
        encoder.encode({
          type: 'init',
          context: launch.context,
          scratch: launch.scratch,
          uid: launch.plan.uid ?? null,
          gid: launch.plan.gid ?? null,
          processLimit: launch.processLimit ?? null,
          fileSizeLimit: launch.fileSizeLimitBytes,
          memoryLimit: launch.memoryLimitBytes ?? null,
          ...(launch.memoryHeadroomBytes !== undefined
            ? { memoryHeadroom: launch.memoryHeadroomBytes }
            : {}),
          captureLimit: launch.captureLimitChars,
          answerDict: launch.answerDict !== false,
          maxFrame: MAX_WORKER_FRAME,
        }),
      );
    });
  }

  /** False once the worker is dead or being killed. */
  get alive(): boolean {
    return !this.dead && !this.stopping;
  }

  /** Resolves when the process has exited and its pipes are closed. */
  whenExited(): Promise<void> {
    return this.exited;
  }

  /** Sends a message; a no-op once the worker is dead or being killed. */
  send(message: Record<string, unknown>): void {
    if (!this.alive) return;
    this.channel.write(this.encoder.encode(message));
  }

  /** Routes the raw fd 1/2 output to `raw` until its end marker (or `undefined`). */
  captureRaw(raw: RawOutput | undefined): void {
    this.raw = raw;
  }

  /** Kills the worker (and, in a PID namespace, everything it started); resolves on exit. */
  async kill(death: WorkerDeath): Promise<void> {
    this.killReason ??= death;
    this.stopping = true;
    this.child.kill('SIGKILL');
    if (!this.pidNamespace && this.facts.uid !== 0) await killUid(this.facts.uid);
    await this.exited;
  }

  private onStderr(chunk: Buffer): void {
    this.stderrTail = (this.stderrTail + chunk.toString('latin1')).slice(-4000);
    this.raw?.push(chunk);
  }

  private onViolation(detail: string): void {
    if (!this.alive) return;
    void this.kill({
      reason: 'protocol',
      detail: `protocol violation on the private channel: ${detail}`,
    });
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.dead) return;
    this.dead = true;
    this.channel.destroy();
    const tail = cleanTail(this.stderrTail);
    const death: WorkerDeath = this.killReason ?? {
      reason: 'crash',
      detail: `the worker process ended (${signal ? `signal ${signal}` : `exit code ${code}`})${tail ? `; last output: ${tail.slice(-500)}` : ''}`,
    };
    this.listener.died(this, death);
  }
}

function cleanTail(s: string): string {
  return s.replace(/\x00RCLM\d+\x00/g, '').trim();
}

async function findPythonPid(
  pid: number | undefined,
  inPidNamespace: boolean,
): Promise<number | undefined> {
  if (pid === undefined || !inPidNamespace) return pid;
  try {
    const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
    const first = Number.parseInt(children.trim().split(/\s+/)[0] ?? '', 10);
    return Number.isFinite(first) ? first : undefined;
  } catch {
    return undefined;
  }
}

/** Without a PID namespace, processes the code started must be found by their uid. */
async function killUid(uid: number): Promise<void> {
  for (let round = 0; round < 5; round++) {
    let found = 0;
    for (const name of await readdir('/proc').catch(() => [] as string[])) {
      if (!/^\d+$/.test(name)) continue;
      const status = await readFile(`/proc/${name}/status`, 'utf8').catch(() => '');
      const m = /^Uid:\s+(\d+)/m.exec(status);
      if (m && Number(m[1]) === uid) {
        found++;
        try {
          process.kill(Number(name), 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    if (!found) return;
  }
}
