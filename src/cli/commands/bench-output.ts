/** Shared output of `reclamo bench` and `reclamo eval`: progress lines, a live bar, the closing summary. */
import type { RowStart } from '../../evals/bench/bench.js';
import type { BenchRow } from '../../evals/bench/row.js';
import { formatSize, summarizeRows } from '../../evals/bench/summary.js';
import { DEMO_CAVEAT } from '../../evals/demo.js';
import { formatTokens } from '../../evals/tokens.js';
import { ProgressBar } from '../progress-bar.js';
import { wrap } from './demo.js';

function rowName(row: RowStart): string {
  const which = row.item !== undefined ? `item ${row.item}` : `seed ${row.seed}`;
  return `${row.task} ${formatSize(row)} ${which} ${row.mode}`;
}

/** One line per finished row. */
export function progressLine(row: BenchRow, done: number, total: number): string {
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
  return `[${done}/${total}] ${rowName(row)}: ${result}`;
}

/**
 * Progress on stderr: a line per finished row and, on a terminal, a live bar
 * under them (rows done of total, time left, the row that runs).
 */
export function rowProgress(): {
  onRow: (row: BenchRow, done: number, total: number) => void;
  onRowStart: (row: RowStart, done: number, total: number) => void;
  close: () => void;
} {
  const bar = ProgressBar.onStderr('rows');
  return {
    onRowStart(row, done, total) {
      bar?.update(done, total, `running ${rowName(row)}`);
    },
    onRow(row, done, total) {
      const line = progressLine(row, done, total);
      if (bar) {
        bar.log(line);
        bar.update(done, total);
      } else process.stderr.write(`${line}\n`);
    },
    close: () => bar?.clear(),
  };
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
