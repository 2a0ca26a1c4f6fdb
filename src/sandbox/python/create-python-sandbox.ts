import { chmod, chown, mkdir, mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandboxError } from '../../errors.js';
import type { ContextSource, HostCallHandler } from '../sandbox.js';
import { countUserTasks, planIsolation } from './isolation.js';
import { PythonSandbox } from './python-sandbox.js';
import { resolvePython } from './resolve-python.js';
import { workerEnv } from './worker-env.js';
import type { WorkerLaunch } from './worker-process.js';

/** Options of createPythonSandbox. */
export interface PythonSandboxOptions {
  /** Where `context` comes from: a file, a directory, literal text, or nothing. */
  context: ContextSource;
  /** Answers `llm_query`, `llm_query_batched` and `rlm_query` calls from model code. */
  onHostCall: HostCallHandler;
  /** Interpreter to run: a path or a name on PATH (e.g. a virtualenv's python). Default `python3`. */
  python?: string;
  /** Wall-clock limit of one execution in ms. Default 60,000. */
  execTimeoutMs?: number;
  /** After a timeout's KeyboardInterrupt, how long the code gets to stop before the worker is killed. Default 1,000. */
  interruptGraceMs?: number;
  /** Host calls one execution may make (a batched call counts one per prompt). Default 1,000. */
  maxHostCallsPerExec?: number;
  /** Host calls over the sandbox's whole life. Default 10,000. */
  maxHostCallsPerRun?: number;
  /**
   * Address-space limit of the worker (RLIMIT_AS) in bytes; an allocation over it raises
   * MemoryError in the model's code. Default: the worker's size after loading the context
   * plus `memoryHeadroomBytes`.
   */
  memoryLimitBytes?: number;
  /**
   * When `memoryLimitBytes` is not set: how much address space the worker may grow by after
   * loading the context, so the limit follows the context's size. Default 4 GiB.
   */
  memoryHeadroomBytes?: number;
  /** Processes and threads the worker may have at once (RLIMIT_NPROC). Default 128. */
  processLimit?: number;
  /** Characters of stdout and of stderr kept per execution. Default 1,000,000. */
  captureLimitChars?: number;
  /**
   * Largest file the worker may write (RLIMIT_FSIZE), in bytes; a bigger write fails with
   * `OSError: File too large` in the model's code. Also the cap on rlm_query data.
   * Default 1 GiB.
   */
  fileSizeLimitBytes?: number;
  /**
   * Bind the reserved `answer` dict (default true). When false, `answer` is an
   * ordinary name the model may assign, as in the upstream RLM layout.
   */
  answerDict?: boolean;
  /** Extra environment variables for the worker; names that look like secrets are refused. */
  env?: Record<string, string>;
  /** How long start-up (including loading the context) may take in ms. Default 120,000. */
  startTimeoutMs?: number;
  /** Directory for the sandbox's scratch space. Default the OS temp directory. */
  scratchParent?: string;
  /** Test hooks. */
  _internal?: { now?: () => number };
}

/** Where worker.py lives: beside this module in src/ and, after the build, in dist/. */
export function workerScriptPath(): string {
  return join(dirname(fileURLToPath(import.meta.url)), 'worker.py');
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new SandboxError(`Sandbox option ${name} must be a positive number, got ${value}.`);
  }
  return value;
}

function countCap(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    throw new SandboxError(`Sandbox option ${name} must be a whole number >= 0, got ${value}.`);
  }
  return value;
}

async function contextSpec(
  source: ContextSource,
  scratch: string,
): Promise<WorkerLaunch['context']> {
  switch (source.kind) {
    case 'none':
      return { kind: 'none' };
    case 'text': {
      // The worker reads every context from disk, so literal text is spooled first.
      const path = join(scratch, 'context.txt');
      await writeFile(path, source.text, { mode: 0o600 });
      return { kind: 'file', path };
    }
    case 'file':
    case 'directory': {
      const path = resolve(source.path);
      const format =
        source.kind === 'file' && source.format === 'json' ? { format: 'json' as const } : {};
      const info = await stat(path).catch(() => undefined);
      if (!info) {
        throw new SandboxError(`Context ${source.kind} ${path} does not exist. Check the path.`);
      }
      if (source.kind === 'file' && !info.isFile()) {
        throw new SandboxError(
          `Context ${path} is not a file. Pass it as { kind: 'directory' } if it is a directory.`,
        );
      }
      if (source.kind === 'directory' && !info.isDirectory()) {
        throw new SandboxError(
          `Context ${path} is not a directory. Pass it as { kind: 'file' } if it is a file.`,
        );
      }
      return { kind: source.kind, path, ...format };
    }
    default:
      throw new SandboxError(
        `Unknown context kind ${JSON.stringify((source as { kind: unknown }).kind)}; use file, directory, text or none.`,
      );
  }
}

/**
 * Starts a persistent CPython REPL holding the context as `context`, contained as far as
 * this machine allows (see `capabilities`). Model code that fails, hangs or crashes
 * becomes an ExecResult; only a sandbox that cannot start or restart throws SandboxError.
 */
export async function createPythonSandbox(options: PythonSandboxOptions): Promise<PythonSandbox> {
  if (typeof options.onHostCall !== 'function') {
    throw new SandboxError('createPythonSandbox needs an onHostCall function to answer llm_query.');
  }
  const execTimeoutMs = positive('execTimeoutMs', options.execTimeoutMs, 60_000);
  const interruptGraceMs = positive('interruptGraceMs', options.interruptGraceMs, 1_000);
  const captureLimitChars = positive('captureLimitChars', options.captureLimitChars, 1_000_000);
  const startTimeoutMs = positive('startTimeoutMs', options.startTimeoutMs, 120_000);
  const processLimit = positive('processLimit', options.processLimit, 128);
  const fileSizeLimitBytes = positive('fileSizeLimitBytes', options.fileSizeLimitBytes, 1 << 30);
  const memoryLimitBytes =
    options.memoryLimitBytes === undefined
      ? undefined
      : positive('memoryLimitBytes', options.memoryLimitBytes, 0);
  const memoryHeadroomBytes =
    options.memoryHeadroomBytes === undefined
      ? undefined
      : positive('memoryHeadroomBytes', options.memoryHeadroomBytes, 0);
  const maxHostCallsPerExec = countCap('maxHostCallsPerExec', options.maxHostCallsPerExec, 1_000);
  const maxHostCallsPerRun = countCap('maxHostCallsPerRun', options.maxHostCallsPerRun, 10_000);

  const plan = await planIsolation();
  const python = await resolvePython({
    python: options.python,
    pathEnv: process.env.PATH,
    needsOtherAccess: plan.uid !== undefined,
  });

  const scratch = await mkdtemp(join(options.scratchParent ?? tmpdir(), 'reclamo-sandbox-'));
  const cleanup = () => rm(scratch, { recursive: true, force: true });
  try {
    const dirs = {
      home: join(scratch, 'home'),
      tmp: join(scratch, 'tmp'),
      exchange: join(scratch, 'exchange'),
    };
    for (const dir of Object.values(dirs)) {
      await mkdir(dir, { mode: 0o700 });
      if (plan.uid !== undefined) await chown(dir, plan.uid, plan.gid ?? plan.uid);
    }
    // rlm_query data handed on to a child is moved here, out of the worker's reach.
    const hostDir = join(scratch, 'host');
    await mkdir(hostDir, { mode: 0o700 });
    // The unprivileged worker must be able to enter the scratch root, not list it.
    await chmod(scratch, 0o711);
    const context = await contextSpec(options.context, scratch);
    const uid = process.getuid?.();
    const effectiveProcessLimit =
      plan.uid === undefined && uid !== undefined
        ? processLimit + (await countUserTasks(uid))
        : processLimit;
    const launch: WorkerLaunch = {
      python: python.info.executable,
      workerScript: workerScriptPath(),
      plan,
      env: workerEnv(dirs, options.env),
      cwd: dirs.home,
      context,
      scratch: dirs,
      memoryLimitBytes,
      memoryHeadroomBytes,
      processLimit: effectiveProcessLimit,
      fileSizeLimitBytes,
      captureLimitChars,
      startTimeoutMs,
      answerDict: options.answerDict !== false,
    };
    const sandbox = new PythonSandbox(
      launch,
      {
        onHostCall: options.onHostCall,
        execTimeoutMs,
        interruptGraceMs,
        maxHostCallsPerExec,
        maxHostCallsPerRun,
        captureLimitChars,
        exchange: {
          dir: await realpath(dirs.exchange),
          hostDir: await realpath(hostDir),
          uid: plan.uid ?? process.getuid?.() ?? 0,
          maxBytes: fileSizeLimitBytes,
        },
        now: options._internal?.now ?? (() => performance.now()),
        cleanup,
      },
      python.info,
      plan,
      python.notes,
    );
    await sandbox.start();
    return sandbox;
  } catch (e) {
    await cleanup();
    throw e;
  }
}
