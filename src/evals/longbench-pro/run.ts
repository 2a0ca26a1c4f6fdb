/**
 * Running LongBench Pro items through the bench modes: the catalogue is
 * built, filtered (split, bucket, task, kind; refused and unscored items
 * out), the chosen items' text read, and each item becomes one cell.
 */
import { type BenchOptions, type BenchResult, runBench } from '../bench/bench.js';
import { EvalConfigError } from '../errors.js';
import { buildCatalog, filterItems, type ItemFilter, loadRecords } from './catalog.js';
import { itemCells } from './instance.js';
import { readSourceRecord } from './source.js';

export interface LongBenchProRunOptions
  extends Omit<BenchOptions, 'tasks' | 'cells' | 'sizes' | 'seeds'> {
  /** The dataset file (`longbench_pro.json`). */
  file: string;
  filter?: ItemFilter;
  /** Exam hashes (see readExamHashes); matching items are never run. */
  examHashes?: ReadonlySet<string>;
  /** Run at most this many items (the first ones in file order). */
  limit?: number;
}

export async function runLongBenchPro(options: LongBenchProRunOptions): Promise<BenchResult> {
  const { file, filter, examHashes, limit, ...bench } = options;
  const catalog = await buildCatalog(file, examHashes ? { examHashes } : {});
  let items = filterItems(catalog.items, filter ?? {});
  if (limit !== undefined) items = items.slice(0, limit);
  if (items.length === 0) {
    throw new EvalConfigError(
      `no LongBench Pro items in ${file} match the filter (${catalog.items.length} items in the file). Fix: widen --split, --max-bucket or --tasks.`,
    );
  }
  const records = await loadRecords(file, new Set(items.map((i) => i.id)));
  return runBench({
    ...bench,
    cells: itemCells(items, records),
    meta: {
      dataset: 'LongBench Pro',
      file,
      source: (await readSourceRecord(file)) ?? null,
      filter: filter ?? {},
      items: items.length,
      ...bench.meta,
    },
  });
}
