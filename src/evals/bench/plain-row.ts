/**
 * The plain baseline: one call with the whole context in the prompt. A prompt
 * whose estimate exceeds the usable window is recorded as "does not fit" and
 * never sent. One attempt only: no retry with other settings, no choosing
 * among attempts by the answer key.
 */
import type { ResolvedProfile } from '../../config/types.js';
import type { LanguageModel, Message } from '../../lm/model.js';
import { heuristicEstimator, type TokenEstimator } from '../../lm/tokens/estimator.js';
import { countRequest } from '../../lm/tokens/messages.js';
import { estimatorFor } from '../../lm/tokens/select.js';
import { contextStats, contextText } from '../context-file.js';
import { plainMessages } from '../plain-prompt.js';
import type { TaskInstance } from '../task.js';
import { estimateTokensFromCounts } from '../tokens.js';
import type { BenchMode, BenchRow } from './row.js';
import { truncateToFit } from './truncate-to-fit.js';

/** Output cap of a plain call when the root role sets none: room for thinking, or a short answer. */
export const PLAIN_MAX_TOKENS_THINKING = 16_384;
export const PLAIN_MAX_TOKENS = 4_096;

export type PlainOutcome = Pick<
  BenchRow,
  | 'status'
  | 'answer'
  | 'seconds'
  | 'tokens'
  | 'promptTokens'
  | 'usableTokens'
  | 'error'
  | 'stopReason'
  | 'contextChars'
  | 'keptChars'
  | 'estimator'
>;

/** Thinking for a plain mode: the root role's setting, or forced on or off. */
export function plainThinking(mode: BenchMode, profile: ResolvedProfile): boolean | undefined {
  if (mode === 'plain-think') return true;
  if (mode === 'plain-nothink') return false;
  return profile.root.enableThinking;
}

/**
 * Estimated input tokens of the plain request (message framing included),
 * computed without building the prompt: the wrapper is counted as a request,
 * the context from its character and digit counts.
 */
export function plainPromptTokens(instance: TaskInstance): number {
  const wrapper = countRequest(plainMessages('', instance.question), heuristicEstimator);
  const stats = contextStats(instance.context);
  // A dict is rendered with a `=== name ===` line per entry.
  const labels =
    instance.context.kind === 'dict'
      ? Object.keys(instance.context.files).reduce((n, name) => n + name.length + 9, 0)
      : 0;
  return wrapper + estimateTokensFromCounts(stats.chars + labels, stats.digits);
}

/**
 * plain-truncated's prompt: the whole context when it fits, else its head cut
 * to the usable window by the root model's own tokenizer (the heuristic when
 * reclamo has none for it; `estimator` says which).
 */
async function fitTruncated(
  instance: TaskInstance,
  usableTokens: number | undefined,
  estimator: TokenEstimator,
): Promise<
  | { status: 'does_not_fit'; promptTokens: number; usableTokens: number; estimator: string }
  | { status: 'ok'; messages: Message[]; sizes: Partial<PlainOutcome> }
> {
  const document = contextText(instance.context);
  const fitted = truncateToFit(
    document,
    instance.question,
    usableTokens ?? Number.POSITIVE_INFINITY,
    estimator,
  );
  if (!fitted) {
    // Even the question alone is over the window.
    const promptTokens = countRequest(plainMessages('', instance.question), estimator);
    return {
      status: 'does_not_fit',
      promptTokens,
      usableTokens: usableTokens ?? 0,
      estimator: estimator.name,
    };
  }
  return {
    status: 'ok',
    messages: fitted.messages,
    sizes: {
      promptTokens: fitted.tokens,
      ...(usableTokens !== undefined ? { usableTokens } : {}),
      contextChars: document.length,
      keptChars: fitted.keptChars,
      estimator: estimator.name,
    },
  };
}

export async function runPlainRow(
  model: LanguageModel,
  profile: ResolvedProfile,
  instance: TaskInstance,
  mode: BenchMode,
): Promise<PlainOutcome> {
  const thinking = plainThinking(mode, profile);
  const maxTokens =
    profile.root.maxTokens ?? (thinking === false ? PLAIN_MAX_TOKENS : PLAIN_MAX_TOKENS_THINKING);
  const window = profile.root.contextTokens;
  const usableTokens = window === undefined ? undefined : window - maxTokens;
  let messages: Message[];
  let sizes: Partial<PlainOutcome>;
  if (mode === 'plain-truncated') {
    const fitted = await fitTruncated(
      instance,
      usableTokens,
      await estimatorFor(profile.root.model),
    );
    if (fitted.status === 'does_not_fit') return fitted;
    ({ messages, sizes } = fitted);
  } else {
    const promptTokens = plainPromptTokens(instance);
    sizes = usableTokens === undefined ? { promptTokens } : { promptTokens, usableTokens };
    if (usableTokens !== undefined && promptTokens > usableTokens) {
      return { status: 'does_not_fit', ...sizes };
    }
    messages = plainMessages(contextText(instance.context), instance.question);
  }
  const started = performance.now();
  try {
    const completion = await model.doGenerate({
      messages,
      maxTokens,
      ...(thinking === undefined ? {} : { thinking }),
    });
    return {
      status: 'ok',
      answer: completion.content.trim(),
      seconds: (performance.now() - started) / 1000,
      tokens: completion.usage.inputTokens + completion.usage.outputTokens,
      stopReason: completion.finishReason,
      ...sizes,
    };
  } catch (error) {
    return {
      status: 'error',
      error: error instanceof Error ? error.message : String(error),
      seconds: (performance.now() - started) / 1000,
      ...sizes,
    };
  }
}
