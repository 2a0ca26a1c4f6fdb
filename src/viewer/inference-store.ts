/**
 * Inference traces for the viewer: the list of `<dir>/inferences/*.jsonl`
 * (from each file's first and last lines, never its whole text) and one trace
 * with every text cut to a bound the page can hold.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type InferenceTrace, readTrace } from '../infer/trace/read.js';
import { INFERENCE_DIR } from '../infer/trace/writer.js';
import { isRecord, safeParseJson } from '../util/safe-json.js';
import { readFirstLine } from './line-index.js';

/** Most traces listed (the newest). */
export const MAX_LISTED_TRACES = 2_000;
/** Characters kept of any one text of a trace sent to the page. */
export const PAGE_TEXT_CHARS = 200_000;

/** One row of the inference list. */
export interface InferenceSummary {
  traceId: string;
  parentId?: string;
  origin: string;
  task: string;
  status: 'ok' | 'incomplete' | 'error' | 'unfinished';
  startedAt: string;
  model: string;
  requests?: number;
  tokens?: number;
  elapsedMs?: number;
}

/** The inference traces of a folder, newest first. */
export interface InferenceList {
  dir: string;
  traces: InferenceSummary[];
  /** Traces not listed because there were more than MAX_LISTED_TRACES. */
  more: number;
}

/** The last line of a file, read no further back than `limit` bytes. */
async function readLastLine(path: string, limit = 1 << 20): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, limit);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const text = buffer.toString('utf8').replace(/\n+$/, '');
    return text.slice(text.lastIndexOf('\n') + 1);
  } finally {
    await handle.close();
  }
}

function parseRecord(text: string): Record<string, unknown> | undefined {
  const parsed = safeParseJson(text);
  return parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
}

async function summarise(path: string, traceId: string): Promise<InferenceSummary | undefined> {
  const frame = parseRecord(await readFirstLine(path));
  if (frame?.type !== 'frame') return undefined;
  const last = parseRecord(await readLastLine(path));
  const outcome = last?.type === 'outcome' ? last : undefined;
  const model = isRecord(frame.model) && typeof frame.model.id === 'string' ? frame.model.id : '';
  const spent = isRecord(outcome?.spent) ? outcome.spent : undefined;
  const summary: InferenceSummary = {
    traceId,
    origin: typeof frame.origin === 'string' ? frame.origin : '',
    task: typeof frame.task === 'string' ? frame.task.slice(0, 300) : '',
    status: (outcome?.status as InferenceSummary['status'] | undefined) ?? 'unfinished',
    startedAt: typeof frame.t === 'string' ? frame.t : '',
    model,
  };
  if (typeof frame.parentId === 'string') summary.parentId = frame.parentId;
  if (typeof outcome?.requests === 'number') summary.requests = outcome.requests;
  if (typeof spent?.tokens === 'number') summary.tokens = spent.tokens;
  if (typeof outcome?.elapsedMs === 'number') summary.elapsedMs = outcome.elapsedMs;
  return summary;
}

/** Lists `<dir>/inferences/`; an empty list when the folder does not exist. */
export async function listInferences(dir: string): Promise<InferenceList> {
  const folder = join(dir, INFERENCE_DIR);
  let names: string[];
  try {
    if (!(await stat(folder)).isDirectory()) return { dir: folder, traces: [], more: 0 };
    names = (await readdir(folder)).filter((n) => n.endsWith('.jsonl') && !n.startsWith('.'));
  } catch {
    return { dir: folder, traces: [], more: 0 };
  }
  names.sort().reverse();
  const traces: InferenceSummary[] = [];
  for (const name of names.slice(0, MAX_LISTED_TRACES)) {
    const summary = await summarise(join(folder, name), name.slice(0, -'.jsonl'.length)).catch(
      () => undefined,
    );
    if (summary) traces.push(summary);
  }
  return { dir: folder, traces, more: Math.max(0, names.length - MAX_LISTED_TRACES) };
}

/** Every string of a value cut to `max` characters (the page shows the size it had). */
function cutStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') {
    return value.length <= max
      ? value
      : `${value.slice(0, max)}\n[... ${value.length - max} more characters in the trace file]`;
  }
  if (Array.isArray(value)) return value.map((item) => cutStrings(item, max));
  if (isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v, max)]));
  }
  return value;
}

/** One trace for the page, texts bounded. */
export async function inferenceForPage(dir: string, traceId: string): Promise<InferenceTrace> {
  const trace = await readTrace(traceId, { logDir: dir });
  return cutStrings(trace, PAGE_TEXT_CHARS) as InferenceTrace;
}
