import type { ContextShape, ExecError } from '../sandbox.js';

/** What the worker reports about itself once loaded (kernel facts, not intentions). */
export interface WorkerFacts {
  /** Effective uid the model's code runs as. */
  uid: number;
  uids: number[];
  /** The worker's network namespace (`net:[inode]`), when readable. */
  netNs?: string;
  /** RLIMIT_NPROC and RLIMIT_AS soft limits in force (-1: unlimited). */
  nproc: number;
  addressSpace: number;
  /** RLIMIT_FSIZE soft limit in force (-1: unlimited). */
  fileSize: number;
  noNewPrivs: boolean;
  capEff?: string;
  loadMs: number;
  version: string;
  /** The worker's own pid as it sees it (1 in a PID namespace). */
  pid: number;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isInteger(v);
const isStrArray = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Reads the `shape` of a ready message, or undefined when malformed. */
export function readShape(v: unknown): ContextShape | undefined {
  if (!isObj(v) || typeof v.type !== 'string' || !isInt(v.totalChars)) return undefined;
  if (!Array.isArray(v.partLengths) || !v.partLengths.every(isInt)) return undefined;
  const shape: ContextShape = {
    type: v.type,
    totalChars: v.totalChars,
    partLengths: v.partLengths as number[],
  };
  const s = v.skipped;
  if (isObj(s) && isInt(s.hidden) && isInt(s.notUtf8)) {
    shape.skipped = { hidden: s.hidden, notUtf8: s.notUtf8 };
    if (isInt(s.unreadable)) shape.skipped.unreadable = s.unreadable;
  }
  if (isInt(v.invalidUtf8At)) shape.invalidUtf8At = v.invalidUtf8At;
  return shape;
}

const limitOf = (v: unknown): number => (Array.isArray(v) && isInt(v[0]) ? v[0] : -1);

/** Reads the `facts` of a ready message, or undefined when malformed. */
export function readWorkerFacts(v: unknown): WorkerFacts | undefined {
  if (!isObj(v) || !isInt(v.uid) || !Array.isArray(v.uids) || typeof v.version !== 'string') {
    return undefined;
  }
  const facts: WorkerFacts = {
    uid: v.uid,
    uids: v.uids.filter(isInt),
    nproc: limitOf(v.nproc),
    addressSpace: limitOf(v.as),
    fileSize: limitOf(v.fsize),
    noNewPrivs: v.noNewPrivs === true,
    loadMs: typeof v.loadMs === 'number' ? v.loadMs : 0,
    version: v.version,
    pid: isInt(v.pid) ? v.pid : -1,
  };
  if (typeof v.netNs === 'string') facts.netNs = v.netNs;
  if (typeof v.capEff === 'string') facts.capEff = v.capEff;
  return facts;
}

/** An execution's outcome as the worker reports it. */
export interface WorkerResult {
  stdout: string;
  stderr: string;
  stdoutChars: number;
  stderrChars: number;
  changed: string[];
  restored: string[];
  error?: ExecError;
}

/** Reads a `result` message, or undefined when malformed. */
export function readResult(m: Record<string, unknown>): WorkerResult | undefined {
  if (typeof m.stdout !== 'string' || typeof m.stderr !== 'string') return undefined;
  if (!isInt(m.stdoutChars) || !isInt(m.stderrChars)) return undefined;
  if (!isStrArray(m.changed) || !isStrArray(m.restored)) return undefined;
  const out: WorkerResult = {
    stdout: m.stdout,
    stderr: m.stderr,
    stdoutChars: m.stdoutChars,
    stderrChars: m.stderrChars,
    changed: m.changed,
    restored: m.restored,
  };
  if (m.error !== undefined) {
    const e = m.error;
    if (!isObj(e) || typeof e.type !== 'string' || typeof e.message !== 'string') return undefined;
    out.error = {
      type: e.type,
      message: e.message,
      traceback: typeof e.traceback === 'string' ? e.traceback : '',
    };
    if (isInt(e.line)) out.error.line = e.line;
  }
  return out;
}

/** A host call as the worker sends it. */
export type WorkerCall =
  | { id: number; kind: 'llm_query'; prompt: string; model?: string }
  | { id: number; kind: 'llm_query_batched'; prompts: string[]; model?: string }
  | {
      id: number;
      kind: 'rlm_query';
      question: string;
      /** The file name the worker gave the data in its exchange folder. */
      exchange: string;
      dataType: 'str' | 'dict';
      model?: string;
    };

/** Reads a `call` message, or undefined when malformed. */
export function readCall(m: Record<string, unknown>): WorkerCall | undefined {
  if (!isInt(m.id)) return undefined;
  if (m.model !== undefined && typeof m.model !== 'string') return undefined;
  const model = typeof m.model === 'string' ? { model: m.model } : {};
  if (m.kind === 'llm_query' && typeof m.prompt === 'string') {
    return { id: m.id, kind: 'llm_query', prompt: m.prompt, ...model };
  }
  if (m.kind === 'llm_query_batched' && isStrArray(m.prompts)) {
    return { id: m.id, kind: 'llm_query_batched', prompts: m.prompts, ...model };
  }
  if (
    m.kind === 'rlm_query' &&
    typeof m.question === 'string' &&
    typeof m.exchange === 'string' &&
    (m.dataType === 'str' || m.dataType === 'dict')
  ) {
    return {
      id: m.id,
      kind: 'rlm_query',
      question: m.question,
      exchange: m.exchange,
      dataType: m.dataType,
      ...model,
    };
  }
  return undefined;
}
