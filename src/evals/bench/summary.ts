/**
 * The bench's markdown summary: one line per task, size and mode, with the
 * result over seeds, the median seconds and the median sub-calls.
 */
import { formatTokens } from '../tokens.js';
import { BENCH_MODES, type BenchRow } from './row.js';

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? sorted[mid]
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function seconds(value: number | undefined): string {
  if (value === undefined) return '–';
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

/** "3/3 found", "exact 2/3; one seed abs error 34", "does not fit (~74K tokens)", ... */
export function resultOverSeeds(rows: BenchRow[]): string {
  const n = rows.length;
  const unfit = rows.filter((r) => r.status === 'does_not_fit');
  const errors = rows.filter((r) => r.status === 'error');
  const scored = rows.filter((r) => r.status === 'ok');
  if (unfit.length === n) {
    const tokens = median(unfit.map((r) => r.promptTokens ?? 0)) ?? 0;
    return `does not fit (~${formatTokens(tokens)} tokens)`;
  }
  const parts: string[] = [];
  const questions = scored.map((r) => /^(\d+)\/(\d+) questions$/.exec(r.summary ?? ''));
  if (scored.length > 0 && questions.every((m) => m !== null)) {
    const right = questions.reduce((sum, m) => sum + Number(m?.[1]), 0);
    const asked = questions.reduce((sum, m) => sum + Number(m?.[2]), 0);
    parts.push(`${right}/${asked} questions`);
  } else if (scored.length > 0) {
    const exact = scored.filter((r) => r.exact).length;
    const word = scored.every((r) => r.summary === 'found' || r.summary === 'not found')
      ? 'found'
      : 'exact';
    parts.push(
      word === 'found' ? `${exact}/${scored.length} found` : `exact ${exact}/${scored.length}`,
    );
    const misses = scored.filter((r) => !r.exact).map((r) => r.summary ?? 'wrong');
    if (misses.length > 0 && word !== 'found') parts.push(`misses: ${misses.join(', ')}`);
  }
  if (unfit.length > 0) parts.push(`${unfit.length} of ${n} do not fit`);
  if (errors.length > 0) parts.push(`${errors.length} error${errors.length > 1 ? 's' : ''}`);
  return parts.join('; ');
}

/** `1,000 lines`, `8k tokens`, `small`. */
export function formatSize(row: Pick<BenchRow, 'size' | 'unit'>): string {
  const size = typeof row.size === 'number' ? row.size.toLocaleString('en-US') : row.size;
  return row.unit === '' ? size : `${size} ${row.unit}`;
}

/** Sizes in order: numbers by value, labels such as `8k` / `1.5M` by the number they name, others by name. */
function compareSizes(a: number | string, b: number | string): number {
  const x = sizeValue(a);
  const y = sizeValue(b);
  if (x !== undefined && y !== undefined && x !== y) return x - y;
  return String(a).localeCompare(String(b), 'en', { numeric: true });
}

const SIZE_ORDER: Record<string, number> = { tiny: 0, small: 1, medium: 2, large: 3, huge: 4 };

function sizeValue(size: number | string): number | undefined {
  if (typeof size === 'number') return size;
  const m = /^(\d+(?:\.\d+)?)\s*([kKmM]?)$/.exec(size.trim());
  if (m) return Number(m[1]) * (m[2] === '' ? 1 : /k/i.test(m[2] ?? '') ? 1e3 : 1e6);
  return SIZE_ORDER[size.trim().toLowerCase()];
}

/** The markdown table over a set of rows. */
export function summarizeRows(rows: BenchRow[]): string {
  const groups = new Map<string, BenchRow[]>();
  for (const row of rows) {
    const key = `${row.task}|${row.size}|${row.mode}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const ordered = [...groups.values()].sort((a, b) => {
    const x = a[0] as BenchRow;
    const y = b[0] as BenchRow;
    return (
      x.task.localeCompare(y.task, 'en', { numeric: true }) ||
      compareSizes(x.size, y.size) ||
      BENCH_MODES.indexOf(x.mode) - BENCH_MODES.indexOf(y.mode)
    );
  });
  const lines = [
    '| Task | Size | Mode | Result over seeds | Median s | Median sub-calls |',
    '|---|---|---|---|---|---|',
  ];
  for (const group of ordered) {
    const first = group[0] as BenchRow;
    const ran = group.filter((r) => r.status !== 'does_not_fit');
    const sec = median(ran.map((r) => r.seconds ?? 0).filter(() => ran.length > 0));
    const subs = first.mode === 'rlm' ? median(ran.map((r) => r.subcalls ?? 0)) : undefined;
    const what = first.item !== undefined ? 'item' : 'seed';
    lines.push(
      `| ${first.task} | ${formatSize(first)} | ${first.mode} | ${resultOverSeeds(group)} (${group.length} ${what}${group.length > 1 ? 's' : ''}) | ${ran.length > 0 ? seconds(sec) : '–'} | ${subs === undefined ? '–' : String(subs)} |`,
    );
  }
  return lines.join('\n');
}
