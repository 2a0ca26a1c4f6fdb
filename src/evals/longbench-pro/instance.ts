/**
 * A LongBench Pro item as a bench cell: its context and its non-thinking
 * question (the same question for every mode, so rlm and plain get one
 * prompt), scored by the metric of its secondary task.
 */
import type { GridCell } from '../bench/grid.js';
import type { Score, TaskInstance } from '../task.js';
import type { CatalogItem } from './catalog.js';
import type { LongBenchProRecord } from './record.js';
import { scoreItem } from './task-metrics.js';

/** The instance of one item; the answer key never reaches the model. */
export function itemInstance(
  item: CatalogItem,
  record: LongBenchProRecord,
): TaskInstance<string[]> {
  return {
    task: item.taskCode ?? item.secondaryTask,
    size: item.bucket,
    seed: 0,
    question: record.question_nonthinking,
    context: { kind: 'text', chunks: [record.context] },
    truth: record.answer,
    score: (answer) => scoreOf(item, record.answer, answer),
  };
}

function scoreOf(item: CatalogItem, key: readonly string[], answer: string): Score {
  const value = scoreItem(item.secondaryTask, key, answer);
  if (value === undefined) {
    return { score: 0, exact: false, summary: 'unscored', detail: { unscored: true } };
  }
  const exact = value >= 1;
  const summary =
    item.metric === 'accuracy' ? (exact ? 'right' : 'wrong') : `${item.metric} ${value.toFixed(2)}`;
  return { score: value, exact, summary, detail: { metric: item.metric } };
}

/** One cell per item, in catalogue order, tagged with its split, kind and chance. */
export function itemCells(
  items: readonly CatalogItem[],
  records: ReadonlyMap<string, LongBenchProRecord>,
): GridCell[] {
  return items.map((item) => ({
    task: item.taskCode ?? item.secondaryTask,
    unit: 'tokens',
    size: item.bucket,
    seed: 0,
    item: item.id,
    tags: {
      split: item.split,
      kind: item.kind,
      chance: item.chance,
      language: item.language,
      ...(item.metric ? { metric: item.metric } : {}),
    },
    instance: () => {
      const record = records.get(item.id);
      if (!record) throw new Error(`LongBench Pro item ${item.id} vanished from the file`);
      return itemInstance(item, record);
    },
  }));
}
