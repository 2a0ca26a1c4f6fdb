/**
 * The LongBench Pro catalogue: every item of the dataset file with its
 * document group, split, kind (mc / mc-multi / open), chance, bucket and
 * size, and whether the exam list refuses it. Built in one streaming pass
 * that keeps no text; {@link loadRecords} reads the chosen items' text after.
 */

import { access } from 'node:fs/promises';
import { readJsonObjects } from '../../util/json-objects.js';
import { EvalConfigError } from '../errors.js';
import { matchHash } from '../exam/normalize.js';
import { estimateTokens } from '../tokens.js';
import { type GroupingKey, groupItems, groupingKey } from './groups.js';
import { classifyItem, type ItemKind } from './kinds.js';
import { bucketRank, checkRecord, type LongBenchProRecord } from './record.js';
import { type Split, splitOf } from './splits.js';
import { type MetricName, metricFor, taskCode } from './task-metrics.js';

export interface CatalogItem {
  id: string;
  /** Position in the file (0-based). */
  index: number;
  split: Split;
  /** The smallest id of the item's document group. */
  group: string;
  kind: ItemKind;
  chance: number;
  /** The dataset's own length bucket (`8k` ... `256k`). */
  bucket: string;
  primaryTask: string;
  secondaryTask: string;
  /** `T6.2`, when the task name carries a code. */
  taskCode?: string;
  metric?: MetricName;
  /** False for T4 summaries (no embedding model here) and tasks without a known metric. */
  scored: boolean;
  language: string;
  chars: number;
  /** Token estimate of the context (the shared heuristic). */
  tokens: number;
  /** Why the exam list refuses the item, when it does. */
  refused?: 'context' | 'question';
}

export interface Catalog {
  items: CatalogItem[];
  /** Records that failed the check: their position and what was wrong. */
  bad: { index: number; error: string }[];
}

export interface CatalogOptions {
  /** SHA-256 hashes (of normalised text) of exam documents and questions; matching items are refused. */
  examHashes?: ReadonlySet<string>;
}

/** Reads the dataset file once and builds the catalogue. */
export async function buildCatalog(path: string, options: CatalogOptions = {}): Promise<Catalog> {
  await access(path).catch(() => {
    throw new EvalConfigError(
      `no LongBench Pro file at ${path}. Fix: reclamo eval longbench-pro download --dir DIR, then pass the same --dir (or --file PATH).`,
    );
  });
  const partial: Omit<CatalogItem, 'split' | 'group'>[] = [];
  const keys: GroupingKey[] = [];
  const bad: Catalog['bad'] = [];
  const seen = new Set<string>();
  for await (const entry of readJsonObjects(path)) {
    if (!entry.ok) {
      bad.push({ index: entry.index, error: entry.error });
      continue;
    }
    const checked = checkRecord(entry.value);
    if (!checked.ok) {
      bad.push({ index: entry.index, error: checked.error });
      continue;
    }
    const record = checked.record;
    if (seen.has(record.id)) {
      bad.push({ index: entry.index, error: `duplicate id ${record.id}` });
      continue;
    }
    seen.add(record.id);
    keys.push(groupingKey(record.id, record.context));
    partial.push(describe(record, entry.index, options.examHashes));
  }
  const groups = groupItems(keys);
  const items = partial.map((item) => {
    const group = groups.get(item.id) as string;
    return { ...item, group, split: splitOf(group) };
  });
  return { items, bad };
}

function describe(
  record: LongBenchProRecord,
  index: number,
  exam: ReadonlySet<string> | undefined,
): Omit<CatalogItem, 'split' | 'group'> {
  const { kind, chance } = classifyItem(record.question_nonthinking, record.answer);
  const metric = metricFor(record.secondary_task);
  const code = taskCode(record.secondary_task);
  const item: Omit<CatalogItem, 'split' | 'group'> = {
    id: record.id,
    index,
    kind,
    chance,
    bucket: record.token_length.trim().toLowerCase(),
    primaryTask: record.primary_task,
    secondaryTask: record.secondary_task,
    ...(code ? { taskCode: code } : {}),
    ...(metric ? { metric } : {}),
    scored: metric !== undefined && metric !== 'summary',
    language: record.language,
    chars: record.context.length,
    tokens: estimateTokens(record.context),
  };
  const refused = examMatch(record, exam);
  if (refused) item.refused = refused;
  return item;
}

/** Which part of a record matches the exam list, if any. */
export function examMatch(
  record: Pick<LongBenchProRecord, 'context' | 'question_nonthinking' | 'question_thinking'>,
  exam: ReadonlySet<string> | undefined,
): 'context' | 'question' | undefined {
  if (!exam || exam.size === 0) return undefined;
  if (exam.has(matchHash(record.context))) return 'context';
  for (const q of [record.question_nonthinking, record.question_thinking]) {
    if (q !== undefined && exam.has(matchHash(q))) return 'question';
  }
  return undefined;
}

/** Which items to use: by split, bucket, task and kind; refused and unscored items are left out. */
export interface ItemFilter {
  split?: Split;
  /** Largest bucket to keep (`16k` keeps 8k and 16k). */
  maxBucket?: string;
  /** Secondary task codes (`T3.2`) or primary ones (`T3`). */
  tasks?: string[];
  kinds?: ItemKind[];
  /** Keep T4 summaries (they stay unscored). */
  includeUnscored?: boolean;
}

/** Parses a `--max-bucket` value. */
export function checkBucket(label: string): string {
  if (bucketRank(label) < 0) {
    throw new EvalConfigError(
      `unknown length bucket "${label}"; buckets are 8k, 16k, 32k, 64k, 128k, 256k`,
    );
  }
  return label.trim().toLowerCase();
}

export function filterItems(items: readonly CatalogItem[], filter: ItemFilter): CatalogItem[] {
  const max = filter.maxBucket === undefined ? undefined : bucketRank(filter.maxBucket);
  return items.filter((item) => {
    if (item.refused) return false;
    if (!item.scored && !filter.includeUnscored) return false;
    if (filter.split && item.split !== filter.split) return false;
    if (max !== undefined && !(bucketRank(item.bucket) >= 0 && bucketRank(item.bucket) <= max))
      return false;
    if (filter.kinds && !filter.kinds.includes(item.kind)) return false;
    if (filter.tasks && !filter.tasks.some((t) => matchesTask(item, t))) return false;
    return true;
  });
}

function matchesTask(item: CatalogItem, task: string): boolean {
  const code = item.taskCode ?? '';
  return code === task || code.startsWith(`${task}.`);
}

/** The records of the given ids, read from the file in a second pass. */
export async function loadRecords(
  path: string,
  ids: ReadonlySet<string>,
): Promise<Map<string, LongBenchProRecord>> {
  const out = new Map<string, LongBenchProRecord>();
  for await (const entry of readJsonObjects(path)) {
    if (!entry.ok) continue;
    const checked = checkRecord(entry.value);
    if (checked.ok && ids.has(checked.record.id) && !out.has(checked.record.id)) {
      out.set(checked.record.id, checked.record);
    }
  }
  return out;
}
