/**
 * Run settings resolution: a value set explicitly (option, flag, profile)
 * wins; anything unset takes the prompt version's default.
 */

import { MIN_MEMORY_HEADROOM_MB } from '../config/schema.js';
import type { RoleSettings, RunSettings } from '../config/types.js';
import { ConfigError } from '../errors.js';
import type { ReasoningEffort, Sampling } from '../lm/model.js';
import { type InputBudget, inputBudget } from './context-budget/budget.js';
import { getPromptVersion, type PromptVersion } from './prompts/index.js';

/** Settings the caller may set for one run; each wins over the profile and the version default. */
export interface RunOverrides {
  promptVersion?: string;
  maxDepth?: number;
  maxIterations?: number;
  maxErrors?: number;
  /** Seconds for the whole run. */
  maxTimeout?: number;
  /** Seconds per REPL execution. */
  execTimeout?: number;
  maxSubcallsPerRun?: number;
  maxSubcallsPerExec?: number;
  outputTruncateChars?: number;
  subcallChars?: number;
  /** Total tokens (in + out, all roles) the run may spend. */
  tokenBudget?: number;
  /** Thinking on root turns. */
  thinking?: boolean;
  /** Thinking on sub-calls. */
  subThinking?: boolean;
  protocol?: 'fence' | 'tools';
  /** `reclamo` (default) or `upstream-rlm-v0`, the upstream RLM message layout. */
  plannerStyle?: string;
  /** A file whose text replaces the built-in system prompt verbatim. */
  systemPromptFile?: string;
  /** Compaction starts once a root request would exceed this share of the window (0..1). */
  compactionThresholdPct?: number;
  /** No root request above this share of the window is ever sent (0..1]. */
  hardCeilingPct?: number;
  /**
   * MiB (2^20 bytes) each REPL worker, a child RLM's included, may grow by after loading
   * its context; an allocation past it is a MemoryError in the model's code. Default 4096.
   */
  memoryHeadroomMb?: number;
}

export interface RoleRuntime {
  maxTokens: number;
  thinking?: boolean;
  reasoningEffort?: ReasoningEffort;
  sampling?: Sampling;
  timeoutMs: number;
}

export interface ResolvedSettings {
  version: PromptVersion;
  protocol: 'fence' | 'tools';
  plannerStyle: PlannerStyle;
  /** Set when the system prompt comes from a file. */
  systemPromptFile?: string;
  maxDepth: number;
  maxIterations: number;
  maxErrors: number;
  maxTimeoutMs: number;
  execTimeoutMs: number;
  /** Address space each REPL worker may add after loading its context (RLIMIT_AS), in bytes. */
  memoryHeadroomBytes: number;
  maxSubcallsPerRun: number;
  maxSubcallsPerExec: number;
  outputTruncateChars: number;
  subcallChars: number;
  tokenBudget?: number;
  /** The root request budget (window, reply reserve, thresholds). */
  budget: InputBudget;
  continueCutReplies: boolean;
  root: RoleRuntime;
  sub: RoleRuntime;
}

/** The root's message layouts: reclamo's own, or the upstream RLM repository's. */
export const PLANNER_STYLES = ['reclamo', 'upstream-rlm-v0'] as const;
export type PlannerStyle = (typeof PLANNER_STYLES)[number];

function isPlannerStyle(value: string): value is PlannerStyle {
  return (PLANNER_STYLES as readonly string[]).includes(value);
}

export const DEFAULT_MAX_DEPTH = 1;
export const DEFAULT_MAX_ERRORS = 3;
export const DEFAULT_EXEC_TIMEOUT_SECONDS = 120;
/** The worker's default growth allowance after loading the context: 4 GiB. */
export const DEFAULT_MEMORY_HEADROOM_MB = 4096;
/** Per-call size advertised when the sub model's window is unknown. */
export const FALLBACK_SUBCALL_CHARS = 12_000;
/** Root window assumed when neither the profile nor the model names one. */
export const DEFAULT_CONTEXT_TOKENS = 128_000;

export interface ResolveInput {
  run?: RunSettings;
  root?: Partial<RoleSettings>;
  sub?: Partial<RoleSettings>;
  /** The sub model's window when the role does not set one (from the model object). */
  subContextTokens?: number;
  /** The root model's window when the role does not set one (from the model object). */
  rootContextTokens?: number;
  overrides?: RunOverrides;
}

/** Resolves every setting a run needs. Throws ConfigError on a bad value. */
export function resolveSettings(input: ResolveInput): ResolvedSettings {
  const overrides = input.overrides ?? {};
  const run = input.run ?? {};
  const version = getPromptVersion(overrides.promptVersion ?? run.promptVersion);
  const d = version.defaults;
  const protocol = overrides.protocol ?? run.protocol ?? 'fence';
  if (protocol !== 'fence' && protocol !== 'tools') {
    throw new ConfigError(
      `Unknown protocol "${String(protocol)}". Use fence or tools (--protocol fence).`,
      undefined,
      'protocol',
    );
  }
  const plannerStyle = overrides.plannerStyle ?? run.plannerStyle ?? 'reclamo';
  if (!isPlannerStyle(plannerStyle)) {
    throw new ConfigError(
      `Unknown planner style "${plannerStyle}". Use ${PLANNER_STYLES.join(' or ')} (--planner-style).`,
      undefined,
      'planner_style',
    );
  }
  if (plannerStyle === 'upstream-rlm-v0' && protocol === 'tools') {
    throw new ConfigError(
      'The tools protocol is not available with planner style upstream-rlm-v0 (that layout acts through ```repl fences). Fix: use --protocol fence, or drop the planner style.',
      undefined,
      'protocol',
    );
  }
  const systemPromptFile = overrides.systemPromptFile ?? run.systemPromptFile;
  const rootThinking = overrides.thinking ?? input.root?.enableThinking;
  const subThinking = overrides.subThinking ?? input.sub?.enableThinking;
  const subMaxTokens = input.sub?.maxTokens ?? d.subMaxTokens;
  const window = input.sub?.contextTokens ?? input.subContextTokens;
  const derived =
    window !== undefined
      ? Math.max(1000, Math.floor((window - subMaxTokens) * 0.85 * 3))
      : FALLBACK_SUBCALL_CHARS;
  const rootRuntime = role(input.root, {
    maxTokens: rootThinking === false ? d.rootMaxTokensNoThinking : d.rootMaxTokensThinking,
    timeoutSeconds: d.requestTimeoutSeconds,
    thinking: rootThinking,
  });
  const threshold = overrides.compactionThresholdPct ?? run.compactionThresholdPct;
  const ceiling = overrides.hardCeilingPct ?? run.hardCeilingPct;
  const budget = inputBudget({
    contextTokens: input.root?.contextTokens ?? input.rootContextTokens ?? DEFAULT_CONTEXT_TOKENS,
    maxTokens: rootRuntime.maxTokens,
    ...(threshold !== undefined ? { compactionThresholdPct: threshold } : {}),
    ...(ceiling !== undefined ? { hardCeilingPct: ceiling } : {}),
  });
  const settings: ResolvedSettings = {
    version,
    protocol,
    plannerStyle,
    ...(systemPromptFile !== undefined ? { systemPromptFile } : {}),
    maxDepth: positiveInt('max_depth', overrides.maxDepth ?? run.maxDepth ?? DEFAULT_MAX_DEPTH),
    maxIterations: positiveInt(
      'max_iterations',
      overrides.maxIterations ?? run.maxIterations ?? d.maxIterations,
    ),
    maxErrors: positiveInt(
      'max_errors',
      overrides.maxErrors ?? run.maxErrors ?? DEFAULT_MAX_ERRORS,
    ),
    maxTimeoutMs: seconds(
      'max_timeout',
      overrides.maxTimeout ?? run.maxTimeout ?? d.maxTimeoutSeconds,
    ),
    execTimeoutMs: seconds(
      'exec_timeout',
      overrides.execTimeout ?? run.execTimeout ?? DEFAULT_EXEC_TIMEOUT_SECONDS,
    ),
    memoryHeadroomBytes: headroomBytes(
      overrides.memoryHeadroomMb ?? run.memoryHeadroomMb ?? DEFAULT_MEMORY_HEADROOM_MB,
    ),
    maxSubcallsPerRun: nonNegativeInt(
      'max_subcalls_per_run',
      overrides.maxSubcallsPerRun ?? run.maxSubcallsPerRun ?? d.maxSubcallsPerRun,
    ),
    maxSubcallsPerExec: nonNegativeInt(
      'max_subcalls_per_exec',
      overrides.maxSubcallsPerExec ?? run.maxSubcallsPerExec ?? d.maxSubcallsPerExec,
    ),
    outputTruncateChars: positiveInt(
      'output_truncate_chars',
      overrides.outputTruncateChars ?? run.outputTruncateChars ?? d.outputTruncateChars,
    ),
    subcallChars: positiveInt(
      'subcall_chars',
      overrides.subcallChars ??
        run.subcallChars ??
        (d.subcallChars === 'derived' ? derived : d.subcallChars),
    ),
    budget,
    continueCutReplies: d.continueCutReplies,
    root: rootRuntime,
    sub: role(input.sub, {
      maxTokens: d.subMaxTokens,
      timeoutSeconds: d.requestTimeoutSeconds,
      thinking: subThinking,
    }),
  };
  const tokenBudget = overrides.tokenBudget ?? run.tokenBudget;
  if (tokenBudget !== undefined) settings.tokenBudget = positiveInt('token_budget', tokenBudget);
  return settings;
}

function role(
  given: Partial<RoleSettings> | undefined,
  d: { maxTokens: number; timeoutSeconds: number; thinking: boolean | undefined },
): RoleRuntime {
  const out: RoleRuntime = {
    maxTokens: positiveInt('max_tokens', given?.maxTokens ?? d.maxTokens),
    timeoutMs: seconds('timeout', given?.timeoutSeconds ?? d.timeoutSeconds),
  };
  if (d.thinking !== undefined) out.thinking = d.thinking;
  if (given?.reasoningEffort !== undefined) out.reasoningEffort = given.reasoningEffort;
  if (given?.sampling !== undefined) out.sampling = given.sampling;
  return out;
}

/** Returns `value` when `ok`, else refuses it with a ConfigError naming the key and the rule. */
function check(key: string, value: number, ok: boolean, rule: string): number {
  if (!ok) throw new ConfigError(`${key} must be ${rule} (got ${value}).`, undefined, key);
  return value;
}

function positiveInt(key: string, value: number): number {
  return check(key, value, Number.isInteger(value) && value >= 1, 'a whole number of at least 1');
}

function nonNegativeInt(key: string, value: number): number {
  return check(key, value, Number.isInteger(value) && value >= 0, 'a whole number of at least 0');
}

/** MiB in, bytes out; a tiny allowance would leave the worker unable to run anything. */
function headroomBytes(mib: number): number {
  const ok = Number.isInteger(mib) && mib >= MIN_MEMORY_HEADROOM_MB;
  check(
    'memory_headroom_mb',
    mib,
    ok,
    `a whole number of MiB of at least ${MIN_MEMORY_HEADROOM_MB}`,
  );
  return mib * 1024 * 1024;
}

/** Seconds in, milliseconds out. */
function seconds(key: string, value: number): number {
  check(key, value, Number.isFinite(value) && value > 0, 'a positive number of seconds');
  return Math.round(value * 1000);
}
