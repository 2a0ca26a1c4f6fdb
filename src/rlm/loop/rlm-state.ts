/**
 * The shapes of one RLM of the run tree: the task it is given, the result it
 * returns, how its loop ended, the conversation its turns share, and the
 * bundle of parts a turn works with.
 */
import type { Message } from '../../lm/model.js';
import type { ContextSource, Sandbox } from '../../sandbox/sandbox.js';
import type { FinalEvent, StopReason } from '../../trace/events.js';
import type { EventInput, TrajectoryWriter } from '../../trace/writer.js';
import type { ContextKeeper } from '../context-budget/context-keeper.js';
import type { ForcedFinishOutcome } from '../finish/forced-finish.js';
import type { RootProtocol } from '../protocols/protocol.js';
import type { RunTree } from '../run-tree.js';
import type { StartedSandbox } from './start-sandbox.js';
import type { ExecPosition } from './subcalls.js';

/** What one RLM is asked: a question over a context, at a depth of the tree. */
export interface RlmTask {
  query: string;
  context: ContextSource;
  /** 0 for the root, parent depth + 1 for a child started by rlm_query. */
  depth: number;
  /** The RLM whose rlm_query started this one. */
  parent?: { runId: string; file: string; subcall: number };
  /** A REPL already starting for this RLM (the root's starts while the models load). */
  started?: StartedSandbox;
}

/** What one RLM returns. */
export interface RlmResult {
  runId: string;
  answer: string;
  stopReason: StopReason;
  turns: number;
  trajectoryPath: string;
  sftPath?: string;
  forced?: Pick<ForcedFinishOutcome, 'source' | 'variable'>;
  /** The error that stopped the run (endpoint failure), when one did. */
  error?: unknown;
  stats: ActionStats;
}

/** How an RLM's loop ended: its answer and stop reason, before its ids, paths and counts are added. */
export type Ending = Omit<RlmResult, 'runId' | 'trajectoryPath' | 'stats' | 'turns'>;

/** Counts of what the model did (executions, syntax errors, refused finals, slips, nudges), as the `final` record stores them. */
export type ActionStats = FinalEvent['stats'];

/** The conversation with the root model: its history and what the finish rules remember. */
export interface Conversation {
  /** How the root acts: fence, tools or the upstream layout. */
  protocol: RootProtocol;
  history: Message[];
  /** The system prompt and opening messages (what a context-overflow finish is built on). */
  opening: Message[];
  /** The context budget: history structure, REPL `history`, compaction. */
  keeper: ContextKeeper;
  /** Every REPL output the model was shown (for the re-verify rule). */
  shown: string[];
  lastOutput: string;
  consecutiveErrors: number;
  planRejected: boolean;
  reverified: boolean;
  decomposeDue: { promptChars: number } | null;
  decomposeGiven: boolean;
  /** Estimated size of the request that could not be made to fit. */
  overflowTokens?: number;
  stats: ActionStats;
}

/** A fresh conversation that acts through `protocol` under `keeper`'s budget. */
export function newConversation(protocol: RootProtocol, keeper: ContextKeeper): Conversation {
  return {
    protocol,
    history: [],
    opening: [],
    keeper,
    shown: [],
    lastOutput: '',
    consecutiveErrors: 0,
    planRejected: false,
    reverified: false,
    decomposeDue: null,
    decomposeGiven: false,
    stats: { execs: 0, syntaxErrors: 0, rejectedFinals: 0, protocolSlips: 0, nudges: 0 },
  };
}

/** One RLM whose REPL is up: everything a turn works with. */
export interface ActiveRlm {
  tree: RunTree;
  task: RlmTask;
  conversation: Conversation;
  sandbox: Sandbox;
  /** Where the current execution stands (read by the host-call handler). */
  position: ExecPosition;
  /** Writes a trajectory event (and hands it to `onEvent`). */
  emit: (event: EventInput) => void;
  writer: TrajectoryWriter;
}
