/** OpenAI's encodings through js-tiktoken; the ranks ship inside the package (no network). */
import type { TokenEstimator } from './estimator.js';

export type TiktokenEncoding = 'o200k_base' | 'cl100k_base';

/** Runs of non-space characters longer than this are counted in slices (see below). */
const LONG_RUN = /\S{128,}/g;
const SLICE = 64;

/** Loads an encoding's ranks (a few hundred ms, once) and returns an estimator over it. */
export async function loadTiktoken(encoding: TiktokenEncoding): Promise<TokenEstimator> {
  const { Tiktoken } = await import('js-tiktoken/lite');
  const ranks =
    encoding === 'o200k_base'
      ? (await import('js-tiktoken/ranks/o200k_base')).default
      : (await import('js-tiktoken/ranks/cl100k_base')).default;
  const tokenizer = new Tiktoken(ranks);
  // Special-token text in a context is ordinary text here, not an error.
  const encode = (text: string) => tokenizer.encode(text, [], []).length;
  return {
    name: `tiktoken ${encoding}`,
    count(text: string): number {
      // js-tiktoken's merge step is quadratic in one pre-token's length (20,000
      // letters without a space take seconds), so long runs are sliced. A cut
      // adds at most one token per slice: a slight overestimate, the safe side.
      let total = 0;
      let last = 0;
      for (const match of text.matchAll(LONG_RUN)) {
        total += encode(text.slice(last, match.index));
        for (let i = 0; i < match[0].length; i += SLICE)
          total += encode(match[0].slice(i, i + SLICE));
        last = match.index + match[0].length;
      }
      return total + encode(text.slice(last));
    },
  };
}
