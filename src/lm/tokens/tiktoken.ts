/** OpenAI's encodings through js-tiktoken; the ranks ship inside the package (no network). */
import type { TokenEstimator } from './estimator.js';
import { pieceCounter } from './pieces.js';

export type TiktokenEncoding = 'o200k_base' | 'cl100k_base';

/** Loads an encoding's ranks (a few hundred ms, once) and returns an estimator over it. */
export async function loadTiktoken(encoding: TiktokenEncoding): Promise<TokenEstimator> {
  const { Tiktoken } = await import('js-tiktoken/lite');
  const ranks =
    encoding === 'o200k_base'
      ? (await import('js-tiktoken/ranks/o200k_base')).default
      : (await import('js-tiktoken/ranks/cl100k_base')).default;
  const tokenizer = new Tiktoken(ranks);
  // The encoder splits with the encoding's own pattern and merges within each
  // piece, so counting piece by piece gives the same total (pieces.ts; very
  // long pieces are sliced there). Special-token text is ordinary text here.
  const count = pieceCounter(
    new RegExp(ranks.pat_str, 'gu'),
    (piece) => tokenizer.encode(piece, [], []).length,
  );
  return { name: `tiktoken ${encoding}`, count };
}
