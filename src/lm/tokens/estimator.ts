/**
 * Token estimators: how many tokens a text costs a model. The default needs no
 * vocabulary; real tokenizers load lazily (see select.ts).
 */

/** Counts tokens in text. `name` goes into trajectories so a reader knows how counts were made. */
export interface TokenEstimator {
  readonly name: string;
  count(text: string): number;
}

/** Characters per token for text other than digits, in the default estimate. */
export const CHARS_PER_TOKEN = 3.5;

/**
 * The default estimate: one token per ASCII digit (tokenizers such as Qwen's
 * split numbers digit by digit) and 3.5 characters per token for the rest.
 */
export const heuristicEstimator: TokenEstimator = Object.freeze({
  name: 'heuristic (1 per digit, 3.5 chars per token otherwise)',
  count(text: string): number {
    let digits = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 48 && code <= 57) digits++;
    }
    return digits + Math.ceil((text.length - digits) / CHARS_PER_TOKEN);
  },
});
