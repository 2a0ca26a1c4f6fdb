/**
 * `stats`: counts per task x kind x split, with median characters and the
 * median, p90 and max token estimate, and counts by the dataset's own length
 * bucket (the estimate runs high on English and low on Chinese, so the
 * bucket is the better guide to what fits a window).
 */
import { formatTokens } from '../tokens.js';
import type { Catalog, CatalogItem } from './catalog.js';
import { BUCKETS, bucketRank } from './record.js';
import { SPLITS } from './splits.js';

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[at] as number;
}

function median(sorted: number[]): number {
  if (sorted.length === 0) return 0;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Markdown: a summary line, the task x kind x split table and the bucket table. */
export function formatStats(catalog: Catalog, items: readonly CatalogItem[]): string {
  const refused = catalog.items.filter((i) => i.refused).length;
  const groups = new Set(catalog.items.map((i) => i.group)).size;
  const head = [
    `${catalog.items.length.toLocaleString('en-US')} items in ${groups.toLocaleString('en-US')} document groups; ${refused} refused by the exam list; ${catalog.bad.length} bad records.`,
    `Shown: ${items.length.toLocaleString('en-US')} items.`,
  ];
  const cells = new Map<string, CatalogItem[]>();
  for (const item of items) {
    const key = `${item.taskCode ?? item.secondaryTask}\t${item.kind}\t${item.split}`;
    cells.set(key, [...(cells.get(key) ?? []), item]);
  }
  const order = [...cells.keys()].sort((a, b) => {
    const [ta, ka, sa] = a.split('\t');
    const [tb, kb, sb] = b.split('\t');
    return (
      (ta ?? '').localeCompare(tb ?? '', 'en', { numeric: true }) ||
      (ka ?? '').localeCompare(kb ?? '') ||
      SPLITS.indexOf(sa as never) - SPLITS.indexOf(sb as never)
    );
  });
  const table = [
    '| Task | Kind | Split | Items | Median chars | Median tokens | p90 tokens | Max tokens |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const key of order) {
    const group = cells.get(key) ?? [];
    const [task, kind, split] = key.split('\t');
    const chars = group.map((i) => i.chars).sort((a, b) => a - b);
    const tokens = group.map((i) => i.tokens).sort((a, b) => a - b);
    table.push(
      `| ${task} | ${kind} | ${split} | ${group.length} | ${Math.round(median(chars)).toLocaleString('en-US')} | ${formatTokens(Math.round(median(tokens)))} | ${formatTokens(quantile(tokens, 0.9))} | ${formatTokens(tokens.at(-1) ?? 0)} |`,
    );
  }
  const buckets = [
    ...BUCKETS,
    ...new Set(items.map((i) => i.bucket).filter((b) => bucketRank(b) < 0)),
  ];
  const byBucket = [
    '| Bucket | ' + SPLITS.join(' | ') + ' | All |',
    `|---|${SPLITS.map(() => '---|').join('')}---|`,
  ];
  for (const bucket of buckets) {
    const inBucket = items.filter((i) => i.bucket === bucket);
    if (inBucket.length === 0) continue;
    const counts = SPLITS.map((s) => inBucket.filter((i) => i.split === s).length);
    byBucket.push(`| ${bucket} | ${counts.join(' | ')} | ${inBucket.length} |`);
  }
  return [...head, '', ...table, '', ...byBucket].join('\n');
}
