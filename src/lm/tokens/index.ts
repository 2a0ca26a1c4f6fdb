/** Token estimation: the default heuristic, real tokenizers for OpenAI and Qwen3 models, request counts. */
export { cachingEstimator } from './cache.js';
export { CHARS_PER_TOKEN, heuristicEstimator, type TokenEstimator } from './estimator.js';
export {
  countMessage,
  countRequest,
  MESSAGE_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  TOOL_OVERHEAD_TOKENS,
} from './messages.js';
export { estimatorFor, type TokenizerFamily, tokenizerFamily } from './select.js';
