/** Shared output of `reclamo bench` and `reclamo eval`: progress lines and the closing summary. */
import type { BenchRow } from '../../evals/bench/row.js';
import { summarizeRows } from '../../evals/bench/summary.js';
import { DEMO_CAVEAT } from '../../evals/demo.js';
import { formatTokens } from '../../evals/tokens.js';
import { wrap } from './demo.js';

/** One progress line per finished row, on stderr. */
export function printProgress(row: BenchRow, done: number, total: number): void {
  const what = `${row.task} ${row.size.toLocaleString('en-US')} ${row.unit} seed ${row.seed} ${row.mode}`;
  let result: string;
  if (row.status === 'does_not_fit') {
    result = `does not fit (~${formatTokens(row.promptTokens ?? 0)} tokens > ${formatTokens(row.usableTokens ?? 0)} usable)`;
  } else if (row.status === 'error') {
    result = `error: ${row.error ?? 'unknown'}`;
  } else {
    const extra =
      row.mode === 'rlm' ? `, ${row.turns ?? '?'} turns, ${row.subcalls ?? '?'} sub-calls` : '';
    result = `${row.summary ?? '?'} (${(row.seconds ?? 0).toFixed(1)} s${extra})`;
  }
  process.stderr.write(`[${done}/${total}] ${what}: ${result}\n`);
}

/** The markdown summary, with the scripted-policy caveat when the rows came from the offline backend. */
export function printSummary(rows: BenchRow[], file: string): void {
  process.stdout.write(`${summarizeRows(rows)}\n\n`);
  if (rows.some((r) => r.profile === 'scripted'))
    process.stdout.write(`${wrap(DEMO_CAVEAT, 88)}\n\n`);
  process.stdout.write(`Rows: ${file}\n`);
}

/** `runs/<prefix>-<UTC stamp>.json`. */
export function defaultRowFile(prefix: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `runs/${prefix}-${stamp}.json`;
}
