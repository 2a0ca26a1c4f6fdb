/**
 * Writes one frame's trace: one JSON object per line, appended as the frame
 * goes, so a frame that dies mid-way leaves a readable file. The folder is
 * private (0700) and each file 0600: traces hold task text and view contents.
 */
import { appendFile, mkdirSync, statSync, writeFile } from 'node:fs';
import { join } from 'node:path';
import { boundFields, TRACE_FIELD_CHARS } from '../../trace/bounded-fields.js';
import { ensureLogDir, logDirError } from '../../trace/log-dir.js';
import {
  INFERENCE_TRACE_SCHEMA_VERSION,
  type InferenceTraceEvent,
  type InferenceTraceInput,
} from './events.js';

/** The folder under a log dir that holds inference traces. */
export const INFERENCE_DIR = 'inferences';

/** Where a trace id's file lives under `logDir`. */
export function tracePath(logDir: string, traceId: string): string {
  return join(logDir, INFERENCE_DIR, `${traceId}.jsonl`);
}

/** Makes `<logDir>/inferences` (0700) and any missing parents. */
export function ensureTraceDir(logDir: string): string {
  ensureLogDir(logDir);
  const dir = join(logDir, INFERENCE_DIR);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'EEXIST' || !statSync(dir).isDirectory()) throw logDirError(logDir, error);
  }
  return dir;
}

/** How long events may wait in memory before they are written. */
export const TRACE_FLUSH_MS = 1_000;

function writeFileOnce(path: string, text: string, append: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error: NodeJS.ErrnoException | null) => (error ? reject(error) : resolve());
    if (append) appendFile(path, text, done);
    else writeFile(path, text, { flag: 'wx', mode: 0o600 }, done);
  });
}

/**
 * Writes one frame's trace; a writer for `logDir: false` writes nothing.
 * Events wait in memory for at most TRACE_FLUSH_MS and are then appended, so
 * a long frame's file grows as it goes and a frame killed mid-way leaves its
 * earlier lines, while a short frame costs one file write when it ends (on a
 * busy disk, creating and writing a file per event took milliseconds).
 * Writes run off the event loop, in order; `close()` waits for them and
 * rejects if one failed. A text field over its bound is written cut, with its
 * full size and SHA-256 in `cutFields`, as trajectories do. Requests get a
 * bound of their own (`requestChars`), large enough for the frame's views,
 * which the first request carries whole.
 */
export class TraceWriter {
  readonly path: string | undefined;
  private created = false;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;
  private pending: string[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logDir: string | false,
    traceId: string,
    private readonly now: () => Date,
    private readonly requestChars = TRACE_FIELD_CHARS,
  ) {
    if (logDir !== false) this.path = tracePath(logDir, traceId);
  }

  /** Appends one event and returns it as written. */
  write(event: InferenceTraceInput): InferenceTraceEvent {
    const stamped = { ...event, v: INFERENCE_TRACE_SCHEMA_VERSION, t: this.now().toISOString() };
    if (this.path === undefined) return stamped as InferenceTraceEvent;
    const limit = event.type === 'request' ? this.requestChars : TRACE_FIELD_CHARS;
    let line = JSON.stringify(stamped);
    // No string can be longer than the line it is in: only a long line needs the walk.
    if (line.length > limit) {
      const { value, cut } = boundFields(stamped, limit);
      line = JSON.stringify(Object.keys(cut).length > 0 ? { ...value, cutFields: cut } : value);
    }
    this.pending.push(`${line}\n`);
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), TRACE_FLUSH_MS);
      this.timer.unref();
    }
    return stamped as InferenceTraceEvent;
  }

  /** Queues the events still waiting for the file. */
  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const path = this.path;
    const logDir = this.logDir;
    if (this.pending.length === 0 || path === undefined || logDir === false) return;
    const text = this.pending.join('');
    this.pending = [];
    const append = this.created;
    this.created = true;
    this.chain = this.chain
      .then(async () => {
        if (this.failure !== undefined) return;
        try {
          await writeFileOnce(path, text, append);
        } catch (error) {
          // The folder is made again only if it went missing since the tree started.
          if (append || (error as { code?: unknown }).code !== 'ENOENT') throw error;
          ensureTraceDir(logDir);
          await writeFileOnce(path, text, false);
        }
      })
      .catch((error: unknown) => {
        this.failure ??= logDirError(logDir, error);
      });
  }

  /** Writes what is left; rejects with a ConfigError if any write failed. */
  async close(): Promise<void> {
    this.flush();
    await this.chain;
    if (this.failure !== undefined) throw this.failure;
  }
}
