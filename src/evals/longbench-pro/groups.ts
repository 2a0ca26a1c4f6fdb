/**
 * Document groups: items whose contexts are equal, or share a normalised line
 * of at least {@link SHARED_LINE_CHARS} characters, belong together, and so do
 * their groups (transitively). A group is named by its smallest item id, so a
 * group's split never depends on which of its items is read first.
 */
import { sha256Hex as sha256 } from '../../util/sha256.js';
import { normalizeForMatch } from '../exam/normalize.js';

/** A normalised line this long or longer ties two items into one group. */
export const SHARED_LINE_CHARS = 120;

/** What grouping needs of an item; `longLines` are hashes, so an index holds no text. */
export interface GroupingKey {
  id: string;
  contextHash: string;
  longLines: readonly string[];
}

/** The grouping key of one item's context. */
export function groupingKey(id: string, context: string): GroupingKey {
  const lines = new Set<string>();
  for (const raw of context.split('\n')) {
    if (raw.length < SHARED_LINE_CHARS) continue; // normalising only shortens a line
    const line = normalizeForMatch(raw);
    if (line.length >= SHARED_LINE_CHARS) lines.add(sha256(line));
  }
  return { id, contextHash: sha256(context), longLines: [...lines] };
}

/** Ids compare as numbers when both are whole numbers, else by code point. */
export function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The group of every item: a map from item id to its group's smallest id. */
export function groupItems(keys: readonly GroupingKey[]): Map<string, string> {
  const parent = keys.map((_, i) => i);
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root] as number;
    while (parent[i] !== root) {
      const next = parent[i] as number;
      parent[i] = root;
      i = next;
    }
    return root;
  };
  const union = (a: number, b: number) => {
    const x = find(a);
    const y = find(b);
    if (x !== y) parent[y] = x;
  };
  const firstWith = new Map<string, number>();
  const link = (token: string, i: number) => {
    const first = firstWith.get(token);
    if (first === undefined) firstWith.set(token, i);
    else union(first, i);
  };
  keys.forEach((key, i) => {
    link(`c:${key.contextHash}`, i);
    for (const line of key.longLines) link(`l:${line}`, i);
  });
  const smallest = new Map<number, string>();
  keys.forEach((key, i) => {
    const root = find(i);
    const current = smallest.get(root);
    if (current === undefined || compareIds(key.id, current) < 0) smallest.set(root, key.id);
  });
  return new Map(keys.map((key, i) => [key.id, smallest.get(find(i)) as string]));
}
