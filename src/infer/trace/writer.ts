/**
 * Writes one frame's trace: one JSON object per line, appended as the frame
 * goes, so a frame that dies mid-way leaves a readable file. The folder is
 * private (0700) and each file 0600: traces hold task text and view contents.
 */
import { closeSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
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

/**
 * Appends events to one trace file; a writer for `logDir: false` writes
 * nothing. A text field over its bound is written cut, with its full size and
 * SHA-256 in `cutFields`, as trajectories do. Requests get a bound of their
 * own (`requestChars`), large enough for the frame's views, which the first
 * request carries whole.
 */
export class TraceWriter {
  readonly path: string | undefined;
  private fd: number | null = null;

  constructor(
    logDir: string | false,
    traceId: string,
    private readonly now: () => Date,
    private readonly requestChars = TRACE_FIELD_CHARS,
  ) {
    if (logDir === false) return;
    ensureTraceDir(logDir);
    this.path = tracePath(logDir, traceId);
    try {
      this.fd = openSync(this.path, 'wx', 0o600);
    } catch (error) {
      throw logDirError(logDir, error);
    }
  }

  /** Appends one event and returns it as written. */
  write(event: InferenceTraceInput): InferenceTraceEvent {
    const limit = event.type === 'request' ? this.requestChars : TRACE_FIELD_CHARS;
    const { value, cut } = boundFields(event, limit);
    const full = {
      ...value,
      ...(Object.keys(cut).length > 0 ? { cutFields: cut } : {}),
      v: INFERENCE_TRACE_SCHEMA_VERSION,
      t: this.now().toISOString(),
    } as InferenceTraceEvent;
    if (this.fd !== null) writeSync(this.fd, `${JSON.stringify(full)}\n`);
    return full;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
