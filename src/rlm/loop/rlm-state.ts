/**
 * The shapes of one RLM's loop: what it is given, what it returns, the
 * mutable state its turns share, and the bundle of parts a turn works with.
 */
import type { Message } from '../../lm/model.js';
import type { ContextSource, Sandbox } from '../../sandbox/sandbox.js';
import type { FinalEvent, StopReason } from '../../trace/events.js';
import type { EventInput, TrajectoryWriter } from '../../trace/writer.js';
import type { ContextKeeper } from '../context-budget/context-keeper.js';
import type { ForcedFinishOutcome } from '../finish/forced-finish.js';
import type { RootProtocol } from '../protocols/protocol.js';
import type { RunShared } from '../run-tree.js';
import type { StartedSandbox } from './start-sandbox.js';
import type { ExecPosition } from './subcalls.js';

export interface LoopInput {
  query: string;
  context: ContextSource;
  depth: number;
  parent?: { runId: string; file: string; subcall: number };
  /** A REPL already starting for this RLM (the root's starts while the models load). */
  started?: StartedSandbox;
}

export interface LoopOutcome {
  runId: string;
  answer: string;
  stopReason: StopReason;
  turns: number;
  trajectoryPath: string;
  sftPath?: string;
  forced?: Pick<ForcedFinishOutcome, 'source' | 'variable'>;
  /** The error that stopped the run (endpoint failure), when one did. */
  error?: unknown;
  stats: LoopStats;
}

/** How a loop ended, before the run id, trajectory path, turns and stats are added. */
export type LoopEnding = Omit<LoopOutcome, 'runId' | 'trajectoryPath' | 'stats' | 'turns'>;

/** The loop's counters, as its `final` record stores them. */
export type LoopStats = FinalEvent['stats'];

/** Mutable state of one loop. */
export interface LoopState {
  /** How the root acts: fence, tools or the upstream layout. */
  protocol: RootProtocol;
  history: Message[];
  /** The system prompt and opening messages (what a context-overflow finish is built on). */
  opening: Message[];
  /** The context budget: history structure, REPL `history`, compaction. */
  keeper: ContextKeeper;
  shown: string[];
  lastOutput: string;
  consecutiveErrors: number;
  planRejected: boolean;
  reverified: boolean;
  decomposeDue: { promptChars: number } | null;
  decomposeGiven: boolean;
  /** Estimated size of the request that could not be made to fit. */
  overflowTokens?: number;
  stats: LoopStats;
}

/** A fresh state for a loop that acts through `protocol` under `keeper`'s budget. */
export function newLoopState(protocol: RootProtocol, keeper: ContextKeeper): LoopState {
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

/** Everything a turn of a running loop works with (the REPL is up). */
export interface LoopRun {
  shared: RunShared;
  input: LoopInput;
  state: LoopState;
  sandbox: Sandbox;
  /** Where the current execution stands (read by the host-call handler). */
  position: ExecPosition;
  /** Writes a trajectory event (and hands it to `onEvent`). */
  emit: (event: EventInput) => void;
  writer: TrajectoryWriter;
}
