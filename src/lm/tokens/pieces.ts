/**
 * Counting by pre-tokens. BPE tokenizers first split a text with a regex into
 * pre-tokens and then merge bytes within each one, so a text's count is the
 * sum of its pre-tokens' counts. Pre-tokens repeat a lot (words, digits,
 * indentation), so each is counted once and remembered: most of a tokenizer's
 * cost (byte mapping, UTF-8 encoding, merges) is then paid per distinct piece.
 */

/** Pieces longer than this are counted in slices (see {@link pieceCounter}). */
export const LONG_PIECE = 128;
/** The slice length for long pieces; slices are remembered like pieces. */
export const PIECE_SLICE = 64;

/**
 * A counter that splits `text` with `pattern` (a global regex; text between
 * matches counts as pieces too, like Hugging Face's "Isolated" split) and sums
 * `countPiece` over the pieces, remembering up to `maxPieces` piece counts.
 *
 * BPE merging is slow on one long pre-token (quadratic in js-tiktoken, a few
 * ms per thousand characters in Qwen3's), and a long run such as 20,000
 * letters without a space changes whenever it is cut, so no memo helps. A
 * piece longer than {@link LONG_PIECE} characters is therefore counted in
 * {@link PIECE_SLICE}-character slices: each cut adds at most about one
 * token, a slight overestimate (the safe side). Everything else is exact.
 */
export function pieceCounter(
  pattern: RegExp,
  countPiece: (piece: string) => number,
  maxPieces = 100_000,
): (text: string) => number {
  if (!pattern.global) throw new TypeError('pieceCounter: the pattern must have the g flag.');
  let memo = new Map<string, number>();
  const remembered = (text: string): number => {
    const hit = memo.get(text);
    if (hit !== undefined) return hit;
    const tokens = countPiece(text);
    if (memo.size >= maxPieces) memo = new Map();
    memo.set(text, tokens);
    return tokens;
  };
  const piece = (text: string): number => {
    if (text.length <= LONG_PIECE) return remembered(text);
    let total = 0;
    for (let start = 0; start < text.length; ) {
      let end = Math.min(text.length, start + PIECE_SLICE);
      // Never cut a surrogate pair in two.
      if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end++;
      total += remembered(text.slice(start, end));
      start = end;
    }
    return total;
  };
  return (text: string): number => {
    let total = 0;
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      if (match.index > last) total += piece(text.slice(last, match.index));
      if (match[0].length > 0) total += piece(match[0]);
      last = match.index + match[0].length;
    }
    if (last < text.length) total += piece(text.slice(last));
    return total;
  };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
