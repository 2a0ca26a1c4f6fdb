import { readlink } from 'node:fs/promises';
import { SandboxError } from '../../errors.js';
import type {
  AnswerState,
  ContextShape,
  ExecOptions,
  ExecResult,
  HostCall,
  HostCallHandler,
  Sandbox,
  SandboxCapabilities,
  VariableInfo,
  VariableValue,
} from '../sandbox.js';
import { type ExchangeRules, type OpenExchange, openExchange } from './exchange.js';
import type { WorkerMessage } from './frame-codec.js';
import type { IsolationPlan } from './isolation.js';
import { RawOutput } from './raw-output.js';
import type { PythonInfo } from './resolve-python.js';
import { readCall, readResult, type WorkerCall } from './worker-messages.js';
import type { WorkerDeath, WorkerLaunch, WorkerListener, WorkerProcess } from './worker-process.js';
import { WorkerProcess as Worker } from './worker-process.js';

/** Settings the sandbox object needs beyond the launch itself. */
export interface SandboxSettings {
  onHostCall: HostCallHandler;
  execTimeoutMs: number;
  interruptGraceMs: number;
  maxHostCallsPerExec: number;
  maxHostCallsPerRun: number;
  captureLimitChars: number;
  /** Where rlm_query data may be, and what it must be. */
  exchange: ExchangeRules;
  now: () => number;
  /** Removes the scratch directory. */
  cleanup: () => Promise<void>;
}

interface ExecState {
  calls: number;
  cap: number;
  capMessage: string;
}

interface ActiveOp {
  rid: number;
  exec?: ExecState;
  reply(msg: WorkerMessage): void;
  death(death: WorkerDeath): void;
}

const VARIABLES_GONE =
  'The REPL was restarted with the context reloaded: every variable, function and import from earlier executions is gone.';

/** How long to wait for an execution's raw output to drain after its result. */
const RAW_DRAIN_MS = 250;

/** A Sandbox backed by a CPython worker process (see createPythonSandbox). */
export class PythonSandbox implements Sandbox, WorkerListener {
  capabilities!: SandboxCapabilities;
  contextShape!: ContextShape;
  private worker: WorkerProcess | undefined;
  private lostWhileIdle: WorkerDeath | undefined;
  private broken: Error | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private current: ActiveOp | undefined;
  private runCalls = 0;
  private rid = 0;
  private closed = false;
  private hostNetNs: string | undefined;

  constructor(
    private readonly launch: WorkerLaunch,
    private readonly settings: SandboxSettings,
    private readonly python: PythonInfo,
    private readonly plan: IsolationPlan,
    private readonly notes: string[],
  ) {}

  /** Host-namespace pid of the Python worker, for memory readings (undefined when down). */
  get workerPid(): number | undefined {
    return this.worker?.pythonPid;
  }

  /** Host calls made over the sandbox's life (the per-run count). */
  get hostCallsUsed(): number {
    return this.runCalls;
  }

  /** Starts the first worker; rejects with SandboxError when it cannot. */
  async start(): Promise<void> {
    this.hostNetNs = await readlink('/proc/self/ns/net').catch(() => undefined);
    const worker = await Worker.start(this.launch, this);
    this.adopt(worker);
  }

  private adopt(worker: WorkerProcess): void {
    this.worker = worker;
    this.contextShape = worker.shape;
    this.capabilities = this.describe(worker);
  }

  private describe(worker: WorkerProcess): SandboxCapabilities {
    const f = worker.facts;
    const notes = [...this.plan.notes, ...this.notes];
    const uidDropped =
      this.plan.uid !== undefined &&
      this.plan.uid !== 0 &&
      f.uids.length === 3 &&
      f.uids.every((u) => u === this.plan.uid);
    const networkIsolated =
      this.plan.netNamespace && !!f.netNs && !!this.hostNetNs && f.netNs !== this.hostNetNs;
    const caps: SandboxCapabilities = {
      python: this.python.executable,
      pythonVersion: f.version,
      uidDropped,
      uid: f.uid,
      networkIsolated,
      pidIsolated: this.plan.pidNamespace && f.pid === 1,
      userNamespace: this.plan.userNamespace,
      noNewPrivs: f.noNewPrivs,
      notes,
    };
    if (f.addressSpace >= 0) caps.memoryLimitBytes = f.addressSpace;
    if (f.nproc >= 0) caps.processLimit = f.nproc;
    if (f.fileSize >= 0) caps.fileSizeLimitBytes = f.fileSize;
    if (f.uid === 0 && !this.plan.userNamespace) {
      notes.push('model code runs as root: no process limit, no protection of host processes');
    }
    if (this.plan.userNamespace) {
      notes.push(
        'model code runs as your own user (mapped to root inside its user namespace); files your user can read are readable',
      );
    }
    if (f.nproc >= 0 && !uidDropped) {
      notes.push(
        'the process limit counts every process of your user, so it was raised by the number running at start',
      );
    }
    return caps;
  }

  // -- WorkerListener ---------------------------------------------------------

  message(worker: WorkerProcess, msg: WorkerMessage): void {
    if (worker !== this.worker) return;
    if (msg.type === 'call') {
      this.onCall(worker, msg);
      return;
    }
    const op = this.current;
    if (!op || msg.rid !== op.rid) {
      void worker.kill({
        reason: 'protocol',
        detail: `protocol violation: unexpected ${msg.type} message`,
      });
      return;
    }
    op.reply(msg);
  }

  died(worker: WorkerProcess, death: WorkerDeath): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    if (this.current) this.current.death(death);
    else this.lostWhileIdle = death;
  }

  // -- host calls -------------------------------------------------------------

  private onCall(worker: WorkerProcess, msg: WorkerMessage): void {
    const call = readCall(msg);
    if (!call) {
      void worker.kill({ reason: 'protocol', detail: 'protocol violation: malformed host call' });
      return;
    }
    const answer = (ok: boolean, value: unknown) =>
      worker.send(
        ok
          ? { type: 'reply', id: call.id, ok: true, value }
          : { type: 'reply', id: call.id, ok: false, error: value },
      );
    const exec = this.current?.exec;
    if (!exec) {
      answer(false, 'host calls are only available while an execution runs');
      return;
    }
    const n = call.kind === 'llm_query_batched' ? call.prompts.length : 1;
    if (exec.calls + n > exec.cap) {
      answer(false, exec.capMessage);
      return;
    }
    exec.calls += n;
    this.runCalls += n;
    let data: OpenExchange | undefined;
    Promise.resolve()
      .then(async () => {
        if (call.kind === 'rlm_query') {
          data = await openExchange(this.settings.exchange, call.exchange, call.dataType);
        }
        return this.settings.onHostCall(toHostCall(call, data));
      })
      .then(
        (value) => {
          const problem = checkAnswer(call, value);
          answer(!problem, problem ?? value);
        },
        (e: unknown) => answer(false, e instanceof Error ? e.message : String(e)),
      )
      .finally(() => data?.release());
  }

  // -- operations -------------------------------------------------------------

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async ensureWorker(): Promise<WorkerProcess> {
    if (this.closed) throw new SandboxError('The sandbox is closed.');
    if (this.broken) throw this.broken;
    // A worker being killed reports its death first; then a fresh one starts.
    if (this.worker && !this.worker.alive) await this.worker.whenExited();
    if (this.worker?.alive) return this.worker;
    await this.relaunch();
    if (!this.worker) throw this.broken ?? new SandboxError('The Python worker is down.');
    return this.worker;
  }

  private async relaunch(): Promise<void> {
    if (this.closed) return;
    try {
      this.adopt(await Worker.start(this.launch, this));
    } catch (e) {
      this.broken =
        e instanceof SandboxError
          ? e
          : new SandboxError(`Relaunching the worker failed: ${String(e)}`);
    }
  }

  exec(code: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (typeof code !== 'string') {
      return Promise.reject(new SandboxError('exec(code) needs the code as a string.'));
    }
    return this.serial(() => this.runExec(code, options));
  }

  private async runExec(code: string, options: ExecOptions): Promise<ExecResult> {
    const worker = await this.ensureWorker();
    const lost = this.lostWhileIdle;
    this.lostWhileIdle = undefined;
    const rid = ++this.rid;
    const timeoutMs = options.timeoutMs ?? this.settings.execTimeoutMs;
    const perExec = options.maxHostCalls ?? this.settings.maxHostCallsPerExec;
    const perRun = this.settings.maxHostCallsPerRun;
    const runLeft = Math.max(0, perRun - this.runCalls);
    const exec: ExecState = {
      calls: 0,
      cap: Math.min(perExec, runLeft),
      capMessage:
        perExec <= runLeft
          ? `host call refused: this execution reached its cap of ${perExec} host calls`
          : `host call refused: the run reached its cap of ${perRun} host calls`,
    };
    const raw = new RawOutput(rid, this.settings.captureLimitChars);
    worker.captureRaw(raw);
    const started = this.settings.now();
    let timedOut = false;

    return new Promise<ExecResult>((resolve) => {
      let finished = false;
      let timer: NodeJS.Timeout | undefined;
      let grace: NodeJS.Timeout | undefined;
      const stopTimers = () => {
        clearTimeout(timer);
        clearTimeout(grace);
        options.signal?.removeEventListener('abort', cancel);
      };
      const done = (result: ExecResult) => {
        if (finished) return;
        finished = true;
        stopTimers();
        if (this.current?.rid === rid) this.current = undefined;
        worker.captureRaw(undefined);
        resolve(result);
      };
      const base = () => ({
        elapsedMs: this.settings.now() - started,
        hostCalls: exec.calls,
        timedOut,
      });
      this.current = {
        rid,
        exec,
        reply: (msg) => {
          const res = msg.type === 'result' ? readResult(msg) : undefined;
          if (!res) {
            void worker.kill({
              reason: 'protocol',
              detail: 'protocol violation: malformed result',
            });
            return;
          }
          stopTimers();
          const limit = this.settings.captureLimitChars;
          void raw.waitForEnd(RAW_DRAIN_MS).then(() => {
            const rawText = raw.text();
            const room = Math.max(0, limit - res.stderr.length);
            const stderr = res.stderr + rawText.slice(0, room);
            const stderrChars = res.stderrChars + raw.total;
            const result: ExecResult = {
              stdout: res.stdout,
              stderr,
              stdoutChars: res.stdoutChars,
              stderrChars,
              stdoutOverflow: res.stdoutChars > limit,
              stderrOverflow: stderrChars > limit,
              changedNames: res.changed,
              restoredNames: res.restored,
              ...base(),
            };
            if (res.error) result.error = res.error;
            if (lost) {
              result.restarted = {
                reason: lost.reason,
                detail: `Before this execution: ${lost.detail}. ${VARIABLES_GONE}`,
              };
            }
            done(result);
          });
        },
        death: (death) => {
          this.current = undefined;
          void this.relaunch().then(() => {
            const rawText = raw.text();
            const relaunchFailure = this.broken
              ? ` Relaunching failed: ${this.broken.message}`
              : '';
            done({
              stdout: '',
              stderr: rawText,
              stdoutChars: 0,
              stderrChars: raw.total,
              stdoutOverflow: false,
              stderrOverflow: raw.total > this.settings.captureLimitChars,
              changedNames: [],
              restoredNames: [],
              ...base(),
              timedOut: timedOut || death.reason === 'timeout',
              restarted: {
                reason: death.reason,
                detail: `${death.detail}. ${this.closed ? 'The sandbox was closed.' : VARIABLES_GONE}${relaunchFailure}`,
              },
            });
          });
        },
      };
      worker.send({ type: 'exec', rid, code, maxCalls: exec.cap, capMessage: exec.capMessage });
      const interrupt = (why: string) => {
        if (grace !== undefined || finished) return;
        clearTimeout(timer);
        worker.send({ type: 'interrupt' });
        grace = setTimeout(() => {
          void worker.kill({
            reason: 'timeout',
            detail: `${why} and did not stop within ${this.settings.interruptGraceMs} ms of being interrupted, so the worker was killed`,
          });
        }, this.settings.interruptGraceMs);
      };
      timer = setTimeout(() => {
        timedOut = true;
        interrupt(`the execution passed its ${timeoutMs} ms timeout`);
      }, timeoutMs);
      if (options.signal?.aborted) cancel();
      else options.signal?.addEventListener('abort', cancel, { once: true });
      function cancel(): void {
        interrupt('the execution was cancelled');
      }
    });
  }

  /** Sends a non-exec request and returns the worker's reply (serialised with execs). */
  private request(message: Record<string, unknown>): Promise<WorkerMessage> {
    return this.serial(async () => {
      const worker = await this.ensureWorker();
      const rid = ++this.rid;
      return new Promise<WorkerMessage>((resolve, reject) => {
        const timer = setTimeout(() => {
          void worker.kill({
            reason: 'timeout',
            detail: `the worker did not answer a ${String(message.type)} request within ${this.settings.execTimeoutMs} ms`,
          });
        }, this.settings.execTimeoutMs);
        this.current = {
          rid,
          reply: (msg) => {
            clearTimeout(timer);
            this.current = undefined;
            if (msg.type === 'fail') reject(new SandboxError(String(msg.error)));
            else resolve(msg);
          },
          death: (death) => {
            clearTimeout(timer);
            this.current = undefined;
            void this.relaunch().then(() =>
              reject(
                new SandboxError(`The Python worker stopped: ${death.detail}. ${VARIABLES_GONE}`),
              ),
            );
          },
        };
        worker.send({ ...message, rid });
      });
    });
  }

  async getVariable(name: string, maxChars = 1_000_000): Promise<VariableValue> {
    const msg = await this.request({ type: 'get', name, max: Math.max(0, Math.floor(maxChars)) });
    if (msg.exists !== true) return { exists: false };
    const out: VariableValue = { exists: true };
    if (typeof msg.valueType === 'string') out.type = msg.valueType;
    if (typeof msg.text === 'string') out.text = msg.text;
    if (typeof msg.chars === 'number') out.chars = msg.chars;
    return out;
  }

  async listVariables(): Promise<VariableInfo[]> {
    const msg = await this.request({ type: 'list' });
    const vars = Array.isArray(msg.vars) ? msg.vars : [];
    return vars.filter(
      (v): v is VariableInfo =>
        typeof v === 'object' &&
        v !== null &&
        typeof v.name === 'string' &&
        typeof v.type === 'string' &&
        typeof v.size === 'number',
    );
  }

  async setVariable(name: string, value: unknown): Promise<void> {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new SandboxError(`setVariable: ${JSON.stringify(name)} is not a Python identifier.`);
    }
    if (value === undefined) {
      throw new SandboxError(
        `setVariable(${name}): the value must be JSON-serialisable, not undefined.`,
      );
    }
    await this.request({ type: 'set', name, value });
  }

  async readAnswer(maxChars = 10_000_000): Promise<AnswerState> {
    const msg = await this.request({ type: 'answer', max: Math.max(0, Math.floor(maxChars)) });
    return {
      ready: msg.ready === true,
      content: typeof msg.content === 'string' ? msg.content : '',
      ...(typeof msg.chars === 'number' ? { chars: msg.chars } : {}),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    if (worker) await worker.kill({ reason: 'crash', detail: 'the sandbox was closed' });
    await this.chain;
    await this.settings.cleanup();
  }
}

function toHostCall(call: WorkerCall, data: OpenExchange | undefined): HostCall {
  const model = call.model !== undefined ? { model: call.model } : {};
  switch (call.kind) {
    case 'llm_query':
      return { kind: 'llm_query', prompt: call.prompt, ...model };
    case 'llm_query_batched':
      return { kind: 'llm_query_batched', prompts: call.prompts, ...model };
    case 'rlm_query':
      if (!data) throw new SandboxError('rlm_query arrived without its data');
      return { kind: 'rlm_query', question: call.question, data, ...model };
  }
}

function checkAnswer(call: WorkerCall, value: unknown): string | undefined {
  if (call.kind === 'llm_query_batched') {
    if (!Array.isArray(value) || value.length !== call.prompts.length) {
      return `the host's ${call.kind} handler returned ${Array.isArray(value) ? value.length : 'no'} answers for ${call.prompts.length} prompts`;
    }
    if (!value.every((v) => typeof v === 'string')) {
      return `the host's ${call.kind} handler returned a non-string answer`;
    }
    return undefined;
  }
  return typeof value === 'string'
    ? undefined
    : `the host's ${call.kind} handler returned a non-string`;
}
