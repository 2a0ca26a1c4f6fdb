/**
 * The token estimate the bench uses to decide whether a plain prompt fits:
 * the shared heuristic (one token per digit, 3.5 characters per token for
 * everything else). It runs high on digit-heavy text, so "fits" is never
 * optimistic.
 */
import { CHARS_PER_TOKEN, heuristicEstimator } from '../lm/tokens/estimator.js';

/** Estimated tokens of a text given its length and its digit count, without the text. */
export function estimateTokensFromCounts(chars: number, digits: number): number {
  return digits + Math.ceil((chars - digits) / CHARS_PER_TOKEN);
}

/** Estimated tokens of a text. */
export function estimateTokens(text: string): number {
  return heuristicEstimator.count(text);
}

/** A token count for tables: 7,022 / 74K / 1.5M. */
export function formatTokens(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(n >= 1e7 ? 0 : 1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}K`;
  return n.toLocaleString('en-US');
}
