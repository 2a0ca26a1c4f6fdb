/**
 * Row files from before plain became one call: each plain row made two calls
 * (thinking on and off), scored both and kept the better, so its result was
 * chosen with the answer key. Such a row keeps both attempts in `variants`
 * (`thinking` and `nothink`, each with the fields of a plain row's outcome).
 * Re-summarising a file as one variant replaces every such row by that
 * attempt alone, as a `plain-think` or `plain-nothink` row.
 */
import { isRecord } from '../../util/safe-json.js';
import { EvalConfigError } from '../errors.js';
import type { BenchRow } from './row.js';

export type LegacyVariant = 'thinking' | 'nothink';
export const LEGACY_VARIANTS: readonly LegacyVariant[] = ['thinking', 'nothink'];

/** What a variant may carry over; anything else in it is ignored. */
const OUTCOME_FIELDS = [
  'status',
  'answer',
  'score',
  'exact',
  'summary',
  'seconds',
  'tokens',
  'promptTokens',
  'usableTokens',
  'stopReason',
  'error',
] as const;

export interface LegacyResult {
  rows: BenchRow[];
  /** Legacy rows replaced by their variant. */
  replaced: number;
}

export function parseLegacyVariant(value: string): LegacyVariant {
  if ((LEGACY_VARIANTS as readonly string[]).includes(value)) return value as LegacyVariant;
  throw new EvalConfigError(`--legacy-plain takes ${LEGACY_VARIANTS.join(' or ')}, got "${value}"`);
}

/** The rows with every legacy plain row replaced by its `variant` attempt. */
export function asLegacyVariant(rows: readonly BenchRow[], variant: LegacyVariant): LegacyResult {
  let replaced = 0;
  let missing = 0;
  const out = rows.map((row) => {
    const variants = (row as { variants?: unknown }).variants;
    if (row.mode !== 'plain' || !isRecord(variants)) return row;
    const attempt = variants[variant];
    if (!isRecord(attempt)) {
      missing++;
      return row;
    }
    replaced++;
    const { variants: _dropped, ...rest } = row as BenchRow & { variants?: unknown };
    const single: BenchRow = {
      ...rest,
      mode: variant === 'thinking' ? 'plain-think' : 'plain-nothink',
    };
    for (const field of OUTCOME_FIELDS) {
      if (field in attempt) (single as unknown as Record<string, unknown>)[field] = attempt[field];
      else delete (single as unknown as Record<string, unknown>)[field];
    }
    return single;
  });
  if (replaced === 0) {
    throw new EvalConfigError(
      missing > 0
        ? `no legacy plain row has a "${variant}" variant (${missing} have variants without it)`
        : 'the file has no legacy plain rows (plain rows with "variants"); --legacy-plain is for row files written before plain became one call',
    );
  }
  return { rows: out, replaced };
}
