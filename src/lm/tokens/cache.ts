/** Memoised counts: history messages are counted again every turn, so each text is tokenized once. */
import type { TokenEstimator } from './estimator.js';

/** Texts shorter than this are counted directly: hashing them costs about as much. */
const MIN_CACHED_CHARS = 256;

/**
 * Wraps an estimator with a cache keyed by the text, bounded by the total
 * characters it holds; the oldest entries go first, so recent turns stay cached.
 */
export function cachingEstimator(inner: TokenEstimator, maxChars = 32_000_000): TokenEstimator {
  const cache = new Map<string, number>();
  let heldChars = 0;
  return {
    name: inner.name,
    count(text: string): number {
      if (text.length < MIN_CACHED_CHARS) return inner.count(text);
      const hit = cache.get(text);
      if (hit !== undefined) return hit;
      const tokens = inner.count(text);
      if (text.length > maxChars) return tokens;
      for (const key of cache.keys()) {
        if (heldChars + text.length <= maxChars) break;
        cache.delete(key);
        heldChars -= key.length;
      }
      cache.set(text, tokens);
      heldChars += text.length;
      return tokens;
    },
  };
}
