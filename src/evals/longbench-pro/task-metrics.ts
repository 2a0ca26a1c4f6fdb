/** Which metric scores each LongBench Pro secondary task (as the benchmark's own evaluator chooses). */
import { f1, firstLineAccuracy, ndcg, pairwiseOrder, subEm } from './metrics.js';

export type MetricName = 'accuracy' | 'subem' | 'f1' | 'pairwise' | 'ndcg' | 'summary';

/** Secondary task code (`T6.2`) to metric. T4 summaries need an embedding model: `summary` is unscored here. */
const BY_TASK: Record<string, MetricName> = {
  'T1.1': 'ndcg',
  'T1.2': 'ndcg',
  'T2.1': 'pairwise',
  'T2.2': 'pairwise',
  'T3.1': 'accuracy',
  'T3.2': 'accuracy',
  'T4.1': 'summary',
  'T4.2': 'summary',
  'T5.1': 'f1',
  'T5.2': 'f1',
  'T6.1': 'subem',
  'T6.2': 'f1',
  'T6.3': 'pairwise',
  'T7.1': 'f1',
  'T7.2': 'f1',
  'T7.3': 'f1',
  'T8.1': 'subem',
  'T8.2': 'subem',
  'T8.3': 'subem',
  'T9.1': 'f1',
  'T9.2': 'f1',
  'T10.1': 'subem',
  'T10.2': 'subem',
  'T11.1': 'accuracy',
  'T11.2': 'accuracy',
};

const SCORERS: Record<
  Exclude<MetricName, 'summary'>,
  (a: readonly string[], p: string) => number
> = {
  accuracy: firstLineAccuracy,
  subem: subEm,
  f1,
  pairwise: pairwiseOrder,
  ndcg,
};

/** `T6.2` from `T6.2 Targeted Subset Cluster Identification`; undefined when there is no code. */
export function taskCode(secondaryTask: string): string | undefined {
  return /^\s*(T\d+\.\d+)\b/.exec(secondaryTask)?.[1];
}

/** The metric of a secondary task, or undefined for a task this table does not know. */
export function metricFor(secondaryTask: string): MetricName | undefined {
  const code = taskCode(secondaryTask);
  return code === undefined ? undefined : BY_TASK[code];
}

/** Scores a prediction with the task's metric; undefined for unscored (summary) and unknown tasks. */
export function scoreItem(
  secondaryTask: string,
  answer: readonly string[],
  prediction: string,
): number | undefined {
  const metric = metricFor(secondaryTask);
  if (metric === undefined || metric === 'summary') return undefined;
  return SCORERS[metric](answer, prediction);
}
