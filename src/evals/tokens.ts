/**
 * The token estimate the bench uses to decide whether a plain prompt fits:
 * one token per digit, 3.5 characters per token for everything else. It runs
 * high on digit-heavy text on purpose, so "fits" is never optimistic.
 */

/** Estimated tokens of a text given its length and its digit count. */
export function estimateTokensFromCounts(chars: number, digits: number): number {
  return Math.ceil(digits + (chars - digits) / 3.5);
}

/** Estimated tokens of a text. */
export function estimateTokens(text: string): number {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
  }
  return estimateTokensFromCounts(text.length, digits);
}

/** A token count for tables: 7,022 / ~74K / ~1.5M. */
export function formatTokens(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(n >= 1e7 ? 0 : 1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}K`;
  return n.toLocaleString('en-US');
}
