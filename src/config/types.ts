/**
 * A profile after loading, merging and validation: what the rest of the code
 * consumes. Loading (built-ins, TOML user file, env overrides) lives beside
 * this file; nothing here holds a key, only where to get one.
 */
import type { ReasoningEffort, Sampling } from '../lm/model.js';

export type WireApi = 'openai' | 'anthropic';

/** One role's endpoint and generation settings, with profile-level values inherited. */
export interface RoleSettings {
  baseUrl: string;
  api: WireApi;
  /** Name of the environment variable holding the key. */
  apiKeyEnv?: string;
  /** Shell command that prints the key (run once, cached). */
  apiKeyCmd?: string;
  /** Requests in flight at once on this role's base_url (shared by roles on the same URL). */
  concurrency: number;
  model: string;
  maxTokens?: number;
  enableThinking?: boolean;
  reasoningEffort?: ReasoningEffort;
  sampling: Sampling;
  /** The model's window in tokens. */
  contextTokens?: number;
  /** Per-request timeout in seconds. */
  timeoutSeconds?: number;
}

/**
 * Run settings a profile may carry. Unset fields take the prompt version's
 * defaults; a value set anywhere (profile, flag, code) always wins.
 */
export interface RunSettings {
  maxIterations?: number;
  maxErrors?: number;
  execTimeout?: number;
  maxTimeout?: number;
  subcallChars?: number;
  promptVersion?: string;
  maxSubcallsPerRun?: number;
  maxSubcallsPerExec?: number;
  outputTruncateChars?: number;
  plannerStyle?: string;
  protocol?: 'fence' | 'tools';
  /** Interpreter for the REPL worker. */
  python?: string;
  maxDepth?: number;
  tokenBudget?: number;
  compactionThresholdPct?: number;
  hardCeilingPct?: number;
  systemPromptFile?: string;
  /** MiB the REPL worker may grow by after loading its context (RLIMIT_AS). */
  memoryHeadroomMb?: number;
}

export interface ResolvedProfile {
  name: string;
  /** Where it came from: `built-in`, or the user file's path (plus env overrides). */
  source: string;
  root: RoleSettings;
  sub: RoleSettings;
  run: RunSettings;
}
