/**
 * Profiles that ship with reclamo, written in the same shape as the TOML user
 * file so a user entry overrides them field by field. Local servers need no
 * key; hosted APIs read the key from their usual environment variable.
 */
import type { RawProfile, RawSampling } from './schema.js';

/** Qwen3's recommended sampling with thinking on (root turns). */
const QWEN_THINKING: RawSampling = { temperature: 0.6, top_p: 0.95, top_k: 20, min_p: 0 };
/** Qwen3's recommended sampling with thinking off (sub-calls). */
const QWEN_NON_THINKING: RawSampling = { temperature: 0.7, top_p: 0.8, top_k: 20, min_p: 0 };

/** A Qwen3 model on a local OpenAI-compatible server: thinking root, plain sub-calls. */
function localQwen(baseUrl: string, model: string): RawProfile {
  return {
    base_url: baseUrl,
    api: 'openai',
    concurrency: 1,
    model,
    context_tokens: 32768,
    root: { enable_thinking: true, sampling: { ...QWEN_THINKING } },
    sub: { enable_thinking: false, sampling: { ...QWEN_NON_THINKING } },
  };
}

/** Built-in profiles by name. Frozen: copy before changing. */
export const builtInProfiles: Readonly<Record<string, Readonly<RawProfile>>> = deepFreeze({
  /** llama.cpp's `llama-server` on its default port; it serves whatever model it loaded. */
  'llama-cpp': localQwen('http://127.0.0.1:8080/v1', 'default'),
  /** Ollama's OpenAI-compatible endpoint. Start it with OLLAMA_CONTEXT_LENGTH=32768. */
  ollama: localQwen('http://127.0.0.1:11434/v1', 'qwen3:8b'),
  /** `vllm serve Qwen/Qwen3-8B` on its default port. */
  vllm: localQwen('http://127.0.0.1:8000/v1', 'Qwen/Qwen3-8B'),
  /** OpenAI's API: a reasoning model at the root, its small sibling for sub-calls. */
  openai: {
    base_url: 'https://api.openai.com/v1',
    api: 'openai',
    api_key_env: 'OPENAI_API_KEY',
    concurrency: 8,
    context_tokens: 272000,
    root: { model: 'gpt-5', reasoning_effort: 'medium' },
    sub: { model: 'gpt-5-mini', reasoning_effort: 'low' },
  },
  /** Anthropic's Messages API. */
  anthropic: {
    base_url: 'https://api.anthropic.com',
    api: 'anthropic',
    api_key_env: 'ANTHROPIC_API_KEY',
    concurrency: 4,
    context_tokens: 200000,
    root: { model: 'claude-sonnet-4-5', enable_thinking: true },
    sub: { model: 'claude-haiku-4-5', enable_thinking: false },
  },
  /**
   * Any OpenAI-style server: point it with RECLAMO_BASE_URL and RECLAMO_MODEL
   * (and RECLAMO_API_KEY when the server wants one).
   */
  'openai-compatible': {
    base_url: 'http://127.0.0.1:8000/v1',
    api: 'openai',
    concurrency: 1,
    model: 'default',
    context_tokens: 32768,
  },
});

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
