/** One bench result row, and the modes a row can be run in. */

/**
 * How a task is attempted: the harness, or one plain call with the whole
 * context (thinking as the root role sets it, forced on, forced off), or with
 * the head of the context cut to fit the window (`plain-truncated`).
 */
export type BenchMode = 'rlm' | 'plain' | 'plain-think' | 'plain-nothink' | 'plain-truncated';
export const BENCH_MODES: readonly BenchMode[] = [
  'rlm',
  'plain',
  'plain-think',
  'plain-nothink',
  'plain-truncated',
];

export interface BenchRow {
  task: string;
  size: number | string;
  /** Unit of size (lines, tickets, ...). */
  unit: string;
  seed: number;
  /** The dataset item a row is about (LongBench), when rows are items rather than seeds. */
  item?: string;
  mode: BenchMode;
  /** `ok`: an answer was scored; `does_not_fit`: plain prompt over the window, not sent; `error`: the attempt failed. */
  status: 'ok' | 'does_not_fit' | 'error';
  answer?: string;
  score?: number;
  exact?: boolean;
  /** The scorer's verdict, e.g. `found` or `abs error 3`. */
  summary?: string;
  turns?: number;
  subcalls?: number;
  /** Input plus output tokens over every call the attempt made. */
  tokens?: number;
  seconds?: number;
  stopReason?: string;
  /** Trajectory file of an rlm row. */
  trajectory?: string;
  /** Estimated tokens of the plain prompt (plain modes). */
  promptTokens?: number;
  /** Tokens the plain prompt may use (window minus output reserve). */
  usableTokens?: number;
  /** plain-truncated: characters of the context, and how many of them were sent. */
  contextChars?: number;
  keptChars?: number;
  /** How promptTokens was counted (plain-truncated counts with the root model's tokenizer). */
  estimator?: string;
  error?: string;
  /** Facts about the item or task the cell came from (split, kind, chance, generator hash, ...). */
  tags?: Record<string, string | number | boolean>;
  /** What ran the row: package version and git commit (frozen evals record it in every row). */
  harness?: { version: string; commit?: string; dirty?: boolean };
  profile: string;
  /** ISO time the row finished. */
  finishedAt: string;
}

/** The identity of a row in a grid: one task, size, seed (or item) and mode. */
export function rowKey(row: Pick<BenchRow, 'task' | 'size' | 'seed' | 'mode' | 'item'>): string {
  if (row.item !== undefined) return `${row.task}|item:${row.item}|${row.mode}`;
  return `${row.task}|${row.size}|${row.seed}|${row.mode}`;
}
