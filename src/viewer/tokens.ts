import { isObj, num, type Obj } from './coerce.js';
import type { TokenCount } from './view-model.js';

/** reclamo's Usage record, or undefined when the value is not one. */
export function readUsage(value: unknown): TokenCount | undefined {
  if (!isObj(value)) return undefined;
  const input = num(value.inputTokens);
  const output = num(value.outputTokens);
  if (input === null && output === null) return undefined;
  return {
    inputTokens: input ?? 0,
    outputTokens: output ?? 0,
    cachedInputTokens: num(value.cachedInputTokens) ?? 0,
  };
}

/** Sums an upstream `usage_summary` over its models. */
export function readUpstreamUsage(value: unknown): TokenCount | undefined {
  if (!isObj(value) || !isObj(value.model_usage_summaries)) return undefined;
  const total: TokenCount = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  for (const entry of Object.values(value.model_usage_summaries as Obj)) {
    if (!isObj(entry)) continue;
    total.inputTokens += num(entry.total_input_tokens) ?? 0;
    total.outputTokens += num(entry.total_output_tokens) ?? 0;
  }
  return total;
}
