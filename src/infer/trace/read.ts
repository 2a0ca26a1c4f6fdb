/**
 * Reading inference traces back: `readTrace('inference:<id>')` finds the
 * file under the log dir and parses it, reporting malformed lines instead of
 * throwing (a frame killed mid-write still reads).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord, safeParseJson } from '../../util/safe-json.js';
import { TraceNotFoundError } from '../errors.js';
import type { FrameTraceEvent, InferenceTraceEvent, OutcomeTraceEvent } from './events.js';
import { INFERENCE_DIR, tracePath } from './writer.js';

/** A trace as read: its events, the first and last picked out, and its links. */
export interface InferenceTrace {
  traceId: string;
  path: string;
  frame?: FrameTraceEvent;
  outcome?: OutcomeTraceEvent;
  events: InferenceTraceEvent[];
  parentId?: string;
  /** Frames started by this one (tool calls, policy subtasks), in order. */
  childIds: string[];
  /** Lines that could not be read, 1-based. */
  errors: { line: number; message: string }[];
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const PREFIX = 'inference:';

const REQUIRED: Record<InferenceTraceEvent['type'], string[]> = {
  frame: ['traceId', 'task', 'views', 'contract', 'model', 'budget'],
  request: ['index', 'messages', 'maxTokens'],
  response: ['index', 'content', 'usage'],
  request_error: ['index', 'error'],
  repair: ['index', 'problems'],
  tool: ['round', 'call', 'result'],
  child: ['traceId'],
  outcome: ['status'],
};

/** The id in `inference:<id>` (or a bare id); a TraceNotFoundError for anything that is not an id. */
export function traceIdOf(ref: string): string {
  const id = ref.startsWith(PREFIX) ? ref.slice(PREFIX.length) : ref;
  if (!ID.test(id)) {
    throw new TraceNotFoundError(
      `${JSON.stringify(ref)} is not an inference trace id: expected inference:<id> with letters, digits, - and _.`,
    );
  }
  return id;
}

/** Parses the text of a trace file. */
export function parseTrace(text: string, traceId: string, path: string): InferenceTrace {
  const trace: InferenceTrace = { traceId, path, events: [], childIds: [], errors: [] };
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    const parsed = safeParseJson(raw);
    const value = parsed.ok ? parsed.value : undefined;
    const type = isRecord(value) ? value.type : undefined;
    if (!isRecord(value) || typeof type !== 'string' || !(type in REQUIRED)) {
      trace.errors.push({
        line: index + 1,
        message: parsed.ok ? 'not a trace event' : `not valid JSON (${parsed.error})`,
      });
      continue;
    }
    const missing = (REQUIRED[type as InferenceTraceEvent['type']] ?? []).filter(
      (key) => !(key in value),
    );
    if (missing.length > 0) {
      trace.errors.push({
        line: index + 1,
        message: `${type} event without ${missing.join(', ')}`,
      });
      continue;
    }
    const event = value as unknown as InferenceTraceEvent;
    trace.events.push(event);
    if (event.type === 'frame') {
      trace.frame = event;
      if (event.parentId !== undefined) trace.parentId = event.parentId;
    } else if (event.type === 'outcome') trace.outcome = event;
    else if (event.type === 'child') trace.childIds.push(event.traceId);
    else if (event.type === 'tool') trace.childIds.push(...(event.childIds ?? []));
  }
  return trace;
}

/**
 * Reads `inference:<id>` from `<logDir>/inferences/` (default `runs`).
 * Throws TraceNotFoundError naming the folder when there is no such trace.
 */
export async function readTrace(
  ref: string,
  options: { logDir?: string } = {},
): Promise<InferenceTrace> {
  const traceId = traceIdOf(ref);
  const logDir = options.logDir ?? 'runs';
  const path = tracePath(logDir, traceId);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new TraceNotFoundError(
      `No inference trace ${traceId} in ${join(logDir, INFERENCE_DIR)}. Check the id, or pass logDir: the folder the traces were written to.`,
    );
  }
  return parseTrace(text, traceId, path);
}
