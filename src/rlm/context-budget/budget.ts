/**
 * The input budget of a root request (seed 000 "Context budget", seed 004
 * thresholds): how many estimated tokens a request may carry, and from when on
 * the history is compacted.
 */
import { ConfigError } from '../../errors.js';

/** Share of the window kept free to absorb estimate error. */
export const BUDGET_MARGIN = 0.1;
/** The budget never falls below this share of the window. */
export const MIN_BUDGET_SHARE = 0.25;

/** What the budget is computed from. */
export interface BudgetInput {
  /** The root model's window in tokens. */
  contextTokens: number;
  /** The root role's output cap in tokens (reserved for the reply). */
  maxTokens: number;
  /** Compaction starts once a request would exceed this share of the window. */
  compactionThresholdPct?: number;
  /** No request above this share of the window is ever sent. */
  hardCeilingPct?: number;
}

/** The budget of one run's root requests. */
export interface InputBudget {
  contextTokens: number;
  maxTokens: number;
  /** The largest request ever sent, in estimated tokens: the budget, capped by the hard ceiling. */
  limitTokens: number;
  /** Compaction starts above this (the threshold when set, else the limit); never above the limit. */
  compactAtTokens: number;
  /** The compaction threshold as set (a fraction of the window), when one was. */
  compactionThresholdPct?: number;
  /** The hard ceiling as set (a fraction of the window), when one was. */
  hardCeilingPct?: number;
}

/**
 * context_tokens − max_tokens − 10% of context_tokens, never below a quarter
 * of context_tokens; then capped by the optional hard ceiling. Throws
 * ConfigError on a window, cap or threshold that makes no sense.
 */
export function inputBudget(input: BudgetInput): InputBudget {
  const {
    contextTokens,
    maxTokens,
    compactionThresholdPct: threshold,
    hardCeilingPct: ceiling,
  } = input;
  if (!Number.isInteger(contextTokens) || contextTokens < 1) {
    throw new ConfigError(
      `context_tokens must be a positive whole number of tokens (got ${contextTokens}). Fix: set context_tokens in the profile to the model's window.`,
      undefined,
      'context_tokens',
    );
  }
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new ConfigError(
      `max_tokens must be a positive whole number (got ${maxTokens}). Fix: set the root role's max_tokens.`,
      undefined,
      'max_tokens',
    );
  }
  validateThresholds(threshold, ceiling);
  const budget = Math.max(
    Math.floor(contextTokens - maxTokens - BUDGET_MARGIN * contextTokens),
    Math.floor(contextTokens * MIN_BUDGET_SHARE),
  );
  const limitTokens =
    ceiling === undefined ? budget : Math.min(budget, Math.floor(ceiling * contextTokens));
  const compactAtTokens =
    threshold === undefined
      ? limitTokens
      : Math.min(limitTokens, Math.floor(threshold * contextTokens));
  return {
    contextTokens,
    maxTokens,
    limitTokens,
    compactAtTokens,
    ...(threshold !== undefined ? { compactionThresholdPct: threshold } : {}),
    ...(ceiling !== undefined ? { hardCeilingPct: ceiling } : {}),
  };
}

/** Checks `0 < compaction_threshold_pct < hard_ceiling_pct <= 1` for whichever are set. */
export function validateThresholds(
  threshold: number | undefined,
  ceiling: number | undefined,
): void {
  const rule = '0 < compaction_threshold_pct < hard_ceiling_pct <= 1 (fractions of context_tokens)';
  if (threshold !== undefined && !(threshold > 0 && threshold < 1)) {
    throw new ConfigError(
      `compaction_threshold_pct must be a fraction between 0 and 1, exclusive (got ${threshold}); the rule is ${rule}. Fix: e.g. compaction_threshold_pct = 0.7.`,
      undefined,
      'compaction_threshold_pct',
    );
  }
  if (ceiling !== undefined && !(ceiling > 0 && ceiling <= 1)) {
    throw new ConfigError(
      `hard_ceiling_pct must be a fraction above 0 and at most 1 (got ${ceiling}); the rule is ${rule}. Fix: e.g. hard_ceiling_pct = 0.9.`,
      undefined,
      'hard_ceiling_pct',
    );
  }
  if (threshold !== undefined && ceiling !== undefined && threshold >= ceiling) {
    throw new ConfigError(
      `compaction_threshold_pct (${threshold}) must be below hard_ceiling_pct (${ceiling}); the rule is ${rule}. Fix: lower the threshold or raise the ceiling (profile keys, or --compaction-threshold-pct / --hard-ceiling-pct).`,
      undefined,
      'compaction_threshold_pct',
    );
  }
}
