/**
 * The fixed three-way split. No random seed: each document group goes to the
 * split its salted SHA-256 falls in, keyed by the group's smallest item id,
 * so every item of a group lands in the same split and the split of an item
 * never changes as long as its group does not.
 */
import { createHash } from 'node:crypto';
import { EvalConfigError } from '../errors.js';

export const SPLITS = ['practice', 'practice-dev', 'held-out'] as const;
export type Split = (typeof SPLITS)[number];

/** Changing the salt reshuffles every split: never change it for a published split. */
export const SPLIT_SALT = 'reclamo/longbench-pro/split/v1';

/** Shares of groups: held-out below 0.176, practice-dev below 0.26, practice above. */
export const HELD_OUT_SHARE = 0.176;
export const PRACTICE_DEV_SHARE = 0.084;

/** The split of a document group, by its key (the smallest id of its items). */
export function splitOf(groupKey: string): Split {
  const digest = createHash('sha256').update(`${SPLIT_SALT}\n${groupKey}`).digest();
  const u = digest.readUInt32BE(0) / 2 ** 32;
  if (u < HELD_OUT_SHARE) return 'held-out';
  if (u < HELD_OUT_SHARE + PRACTICE_DEV_SHARE) return 'practice-dev';
  return 'practice';
}

/** Parses a `--split` value; the error lists the splits. */
export function parseSplit(value: string): Split {
  if ((SPLITS as readonly string[]).includes(value)) return value as Split;
  throw new EvalConfigError(`unknown split "${value}"; splits are ${SPLITS.join(', ')}`);
}
