/**
 * What a whole run tree shares (the root RLM and every child it starts): the
 * settings, the models and the records of them, the clock and deadline, the
 * sub-call and token counters, usage per role, and the caller's hooks.
 */
import { addUsage, emptyUsage, type LanguageModel, type Usage } from '../lm/model.js';
import type { EndpointRecord, TrajectoryEvent } from '../trace/events.js';
import type { ProfileRecord } from './profile-record.js';
import type { ResolvedSettings } from './settings.js';

/** A snapshot for a live status line. */
export interface RunStatus {
  /** Depth of the RLM that reported (0 = root). */
  depth: number;
  /** Current root turn (of this depth's loop). */
  turn: number;
  /** The turn limit (max_iterations). */
  maxIterations: number;
  /** Sub-calls so far in the whole run tree. */
  subcalls: number;
  /** Tokens in, every role and depth. */
  inputTokens: number;
  /** Tokens out, every role and depth. */
  outputTokens: number;
  /** Milliseconds since the run started. */
  elapsedMs: number;
  /** Milliseconds until max_timeout. */
  timeLeftMs: number;
}

/** What a run tree is built from. */
export interface RunTreeOptions {
  settings: ResolvedSettings;
  models: { root: LanguageModel; sub: LanguageModel };
  /** The endpoints as trajectories record them. */
  endpoints: EndpointRecord[];
  /** The profile as trajectories record it (no key sources). */
  profile: ProfileRecord;
  /** Where every RLM of the tree writes its trajectory. */
  logDir: string;
  /** The root also writes an SFT file. */
  sft: boolean;
  python?: string;
  /** A system prompt that replaces the built-in one. */
  systemPrompt?: string;
  now: () => number;
  generateId: () => string;
  abortSignal?: AbortSignal;
  onEvent?: (event: TrajectoryEvent, depth: number) => void;
  onStatus?: (status: RunStatus) => void;
}

/** The state one run tree shares; every RLM of the tree reads and counts through it. */
export class RunTree {
  readonly settings: ResolvedSettings;
  readonly models: { root: LanguageModel; sub: LanguageModel };
  readonly endpoints: EndpointRecord[];
  readonly profile: ProfileRecord;
  readonly logDir: string;
  readonly sft: boolean;
  readonly python: string | undefined;
  readonly systemPrompt: string | undefined;
  /** The run's clock (ms since epoch; injectable for reproducible trajectories). */
  readonly now: () => number;
  readonly generateId: () => string;
  readonly abortSignal: AbortSignal | undefined;
  readonly start: number;
  /** When max_timeout runs out, on the run's clock. */
  readonly deadline: number;
  /** Sub-calls made in the whole tree. */
  subcalls = 0;
  /** Root turns taken inside child RLMs. */
  childTurns = 0;
  usage: { root: Usage; sub: Usage } = { root: emptyUsage(), sub: emptyUsage() };
  /** Set once the token budget is spent; the loop stops at the next check. */
  budgetExhausted = false;
  private readonly onEvent: RunTreeOptions['onEvent'];
  private readonly onStatus: RunTreeOptions['onStatus'];

  constructor(options: RunTreeOptions) {
    this.settings = options.settings;
    this.models = options.models;
    this.endpoints = options.endpoints;
    this.profile = options.profile;
    this.logDir = options.logDir;
    this.sft = options.sft;
    this.python = options.python;
    this.systemPrompt = options.systemPrompt;
    this.now = options.now;
    this.generateId = options.generateId;
    this.abortSignal = options.abortSignal;
    this.onEvent = options.onEvent;
    this.onStatus = options.onStatus;
    this.start = this.now();
    this.deadline = this.start + options.settings.maxTimeoutMs;
  }

  timeLeft(): number {
    return this.deadline - this.now();
  }

  aborted(): boolean {
    return this.abortSignal?.aborted === true;
  }

  /** Adds usage to a role and checks the token budget. */
  addUsage(role: 'root' | 'sub', usage: Usage): void {
    this.usage[role] = addUsage(this.usage[role], usage);
    const budget = this.settings.tokenBudget;
    if (budget !== undefined && this.tokensUsed() >= budget) this.budgetExhausted = true;
  }

  tokensUsed(): number {
    const { root, sub } = this.usage;
    return root.inputTokens + root.outputTokens + sub.inputTokens + sub.outputTokens;
  }

  /** Hands a written trajectory event to the caller's `onEvent`. */
  event(event: TrajectoryEvent, depth: number): void {
    this.onEvent?.(event, depth);
  }

  /** Reports progress to the caller's `onStatus`. */
  status(depth: number, turn: number): void {
    if (!this.onStatus) return;
    const { root, sub } = this.usage;
    this.onStatus({
      depth,
      turn,
      maxIterations: this.settings.maxIterations,
      subcalls: this.subcalls,
      inputTokens: root.inputTokens + sub.inputTokens,
      outputTokens: root.outputTokens + sub.outputTokens,
      elapsedMs: this.now() - this.start,
      timeLeftMs: Math.max(0, this.timeLeft()),
    });
  }
}
