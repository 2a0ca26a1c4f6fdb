/**
 * What an incomplete frame leaves behind: which allowance ran out, what is
 * left, its trace id and its last outputs, cut to a bounded size. The outputs
 * are evidence of the work done, not a validated answer.
 */
import { headTail } from '../util/head-tail.js';
import type { BudgetAllowance, BudgetRemaining } from './budget.js';

/** Most recent outputs kept, and the characters kept of each. */
export const RECENT_OUTPUTS = 3;
export const RECENT_OUTPUT_CHARS = 2_000;

/** One recent output of the frame: an assistant reply or a tool result. */
export interface RecentOutput {
  role: 'assistant' | 'tool';
  content: string;
  /** Characters cut from its middle (0 when whole). */
  cut: number;
}

/** The observation of a frame that ran out of budget. */
export interface IncompleteObservation {
  status: 'incomplete';
  /** Which allowance ran out. */
  exhausted: BudgetAllowance;
  /** What the budget still held. */
  remaining: BudgetRemaining;
  /** Read `inference:<traceId>` for the whole record. */
  traceId: string;
  /** The last outputs, oldest first; evidence, not an answer. */
  recent: RecentOutput[];
}

/** Keeps the last few outputs of a frame, bounded. */
export class RecentOutputs {
  private readonly items: RecentOutput[] = [];

  add(role: RecentOutput['role'], content: string): void {
    if (content === '') return;
    const { text, cut } = headTail(content, RECENT_OUTPUT_CHARS);
    this.items.push({ role, content: text, cut });
    if (this.items.length > RECENT_OUTPUTS) this.items.shift();
  }

  list(): RecentOutput[] {
    return this.items.map((item) => ({ ...item }));
  }
}

export function incompleteObservation(
  exhausted: BudgetAllowance,
  remaining: BudgetRemaining,
  traceId: string,
  recent: RecentOutputs,
): IncompleteObservation {
  return { status: 'incomplete', exhausted, remaining, traceId, recent: recent.list() };
}
