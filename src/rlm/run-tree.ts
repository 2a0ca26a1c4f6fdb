/**
 * State shared by a whole run tree (the root and every child RLM): the
 * deadline, sub-call and token counters, usage per role, and the wiring.
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
  maxIterations: number;
  /** Sub-calls so far in the whole run tree. */
  subcalls: number;
  inputTokens: number;
  outputTokens: number;
  elapsedMs: number;
  /** Milliseconds until max_timeout. */
  timeLeftMs: number;
}

export interface SharedRunOptions {
  settings: ResolvedSettings;
  models: { root: LanguageModel; sub: LanguageModel };
  endpoints: EndpointRecord[];
  profile: ProfileRecord;
  logDir: string;
  sft: boolean;
  python?: string;
  systemPrompt?: string;
  now: () => number;
  generateId: () => string;
  abortSignal?: AbortSignal;
  onEvent?: (event: TrajectoryEvent, depth: number) => void;
  onStatus?: (status: RunStatus) => void;
}

export class RunShared {
  readonly start: number;
  readonly deadline: number;
  subcalls = 0;
  /** Root turns taken inside child RLMs. */
  childTurns = 0;
  usage: { root: Usage; sub: Usage } = { root: emptyUsage(), sub: emptyUsage() };
  /** Set once the token budget is spent; the loop stops at the next check. */
  budgetExhausted = false;

  constructor(readonly o: SharedRunOptions) {
    this.start = o.now();
    this.deadline = this.start + o.settings.maxTimeoutMs;
  }

  get settings(): ResolvedSettings {
    return this.o.settings;
  }

  now(): number {
    return this.o.now();
  }

  timeLeft(): number {
    return this.deadline - this.o.now();
  }

  aborted(): boolean {
    return this.o.abortSignal?.aborted === true;
  }

  /** Adds usage to a role and checks the token budget. */
  addUsage(role: 'root' | 'sub', usage: Usage): void {
    this.usage[role] = addUsage(this.usage[role], usage);
    const budget = this.o.settings.tokenBudget;
    if (budget !== undefined && this.tokensUsed() >= budget) this.budgetExhausted = true;
  }

  tokensUsed(): number {
    const { root, sub } = this.usage;
    return root.inputTokens + root.outputTokens + sub.inputTokens + sub.outputTokens;
  }

  status(depth: number, turn: number): void {
    if (!this.o.onStatus) return;
    const { root, sub } = this.usage;
    this.o.onStatus({
      depth,
      turn,
      maxIterations: this.o.settings.maxIterations,
      subcalls: this.subcalls,
      inputTokens: root.inputTokens + sub.inputTokens,
      outputTokens: root.outputTokens + sub.outputTokens,
      elapsedMs: this.o.now() - this.start,
      timeLeftMs: Math.max(0, this.timeLeft()),
    });
  }
}
