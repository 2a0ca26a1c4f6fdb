/**
 * The side structure compaction reads beside the root message history: which
 * message belongs to which turn, and what each piece of its text is.
 */
import type { Message, ToolSpec } from '../../lm/model.js';
import type { TokenEstimator } from '../../lm/tokens/index.js';
import type { CompactionEvent } from '../../trace/events.js';
import type { InputBudget } from './budget.js';

/**
 * What a piece of a message is. Only `output` (a REPL output) is ever cut;
 * `stub` and `summary` are pieces compaction wrote.
 */
export type PartKind = 'output' | 'code' | 'nudge' | 'turn' | 'text' | 'stub' | 'summary';

/** One piece of a message's content; the texts of a message's parts, joined, are its content. */
export interface MessagePart {
  kind: PartKind;
  text: string;
  /** Block number within the turn, for outputs (shown in stubs). */
  block?: number;
  /** Set by compaction on a stubbed or shrunk output: the full text it replaced. */
  original?: string;
  /** Set by compaction on a shrunk output: characters of `original` it still shows. */
  keptChars?: number;
  /** Where the full text is in the REPL (e.g. `history[3]`); default the history variable. */
  ref?: string;
}

/** Side information about one history message (same index as the message). */
export interface MessageMeta {
  /**
   * The root turn the message belongs to. Messages without a turn (system
   * prompt, query, context metadata) are never changed.
   */
  turn?: number;
  /**
   * The content in pieces. Without parts the message is one piece whose kind
   * follows its role: a tool message is an `output`, anything else is never cut.
   */
  parts?: MessagePart[];
}

/** Inputs of {@link compactHistory}. */
export interface CompactionInput {
  /** The root history as it would be sent. */
  messages: readonly Message[];
  /** One entry per message. */
  meta: readonly MessageMeta[];
  /** The turn about to be sent (for the record). */
  turn: number;
  budget: InputBudget;
  estimator: TokenEstimator;
  /** Tool specs sent with the request (counted). */
  tools?: readonly ToolSpec[];
  /** Messages sent after the history but never stored (e.g. a per-turn prompt): counted, never changed. */
  trailing?: readonly Message[];
  /**
   * Summarises the texts of turns older than the kept ones, called at most
   * once, only when stubbing old outputs is not enough. Omit to skip the step.
   */
  summarize?: (texts: string[]) => Promise<string>;
  /** Turns whose outputs stay whole in step 1 (default 4). */
  keepTurns?: number;
  /** REPL variable the stubs point to (default `history`). */
  historyVariable?: string;
  /**
   * REPL variable the summary header names as holding the full record of the
   * summarised turns (default the history variable); the caller stores
   * {@link CompactionResult.offloaded} there.
   */
  offloadVariable?: string;
  /** Characters of old history sent to `summarize` at most (default 60,000). */
  summaryInputChars?: number;
  /** Characters of the summary kept at most (default 4,000). */
  summaryMaxChars?: number;
  /** Characters each shrunk output keeps at least, head and tail together (default 400). */
  minKeepChars?: number;
}

/** The `compaction` trajectory event without its envelope (`type`, `v`, `t`). */
export type CompactionRecord = Omit<CompactionEvent, 'type' | 'v' | 't'>;

/** What {@link compactHistory} returns. */
export interface CompactionResult {
  messages: Message[];
  meta: MessageMeta[];
  /** Estimated tokens of the request before and after. */
  beforeTokens: number;
  afterTokens: number;
  /** True when the request is still above the budget's limit: do not send it. */
  overflow: boolean;
  /** Present when the request was over the compaction threshold and something was tried. */
  record?: CompactionRecord;
  /** The full text of the turns a summary replaced, for the caller to keep in the REPL. */
  offloaded?: { variable: string; turns: number[]; text: string };
}
