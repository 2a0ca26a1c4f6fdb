import { oneLine } from './preview.js';
import type { Ending, RunHeader, TrajectoryFormat } from './view-model.js';

/** One row of the run list. */
export interface RunSummary {
  file: string;
  format: TrajectoryFormat;
  question: string;
  answer: string | null;
  ending: Ending;
  turns: number;
  subcalls: number;
  /** Input plus output tokens over root and sub-calls; null when the file has none. */
  tokens: number | null;
  ms: number | null;
  startedAt?: string;
  /** File modification time (ms since epoch), the fallback sort key. */
  modifiedMs: number;
  bytes: number;
  issues: number;
}

export function summarise(
  file: string,
  header: RunHeader,
  stat: { modifiedMs: number; bytes: number },
): RunSummary {
  const { root, sub } = header.tokens;
  const tokens =
    root || sub
      ? (root?.inputTokens ?? 0) +
        (root?.outputTokens ?? 0) +
        (sub?.inputTokens ?? 0) +
        (sub?.outputTokens ?? 0)
      : null;
  return {
    file,
    format: header.format,
    question: oneLine(header.question.text, 200),
    answer: header.answer ? oneLine(header.answer.text, 200) : null,
    ending: header.ending,
    turns: header.counts.turns,
    subcalls: header.counts.subcalls,
    tokens,
    ms: header.time.totalMs,
    ...(header.startedAt ? { startedAt: header.startedAt } : {}),
    modifiedMs: stat.modifiedMs,
    bytes: stat.bytes,
    issues: header.issues.length,
  };
}

/** Newest first: by start time when both runs have one, else by file time. */
export function newestFirst(a: RunSummary, b: RunSummary): number {
  const ta = a.startedAt ? Date.parse(a.startedAt) : Number.NaN;
  const tb = b.startedAt ? Date.parse(b.startedAt) : Number.NaN;
  if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return tb - ta;
  return b.modifiedMs - a.modifiedMs || a.file.localeCompare(b.file);
}
