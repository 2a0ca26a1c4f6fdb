/** The types a frame's parts share: what it is asked, how it ends, its tools, its state. */
import type { Message, ToolCall, ToolSpec, Usage } from '../lm/model.js';
import type { Budget } from './budget.js';
import type { Contract } from './contract.js';
import type { IncompleteObservation, RecentOutputs } from './observation.js';
import type { TraceWriter } from './trace/writer.js';
import type { InferenceTree } from './tree.js';
import type { View } from './views.js';

/** What a frame is asked. */
export interface FrameSpec {
  task: string;
  views: readonly View[];
  contract: Contract;
  /** The frame may use the read tools. */
  read: boolean;
  /** What started it, for the trace (`infer`, `map`, `tool:infer`, ...). */
  origin: string;
}

/** How a frame ended. */
export type FrameResult<T = unknown> =
  | { status: 'ok'; value: T; traceId: string }
  | { status: 'incomplete'; observation: IncompleteObservation }
  | { status: 'error'; error: Error; traceId?: string };

/** A tool call's result as the model will see it. */
export interface ToolOutcome {
  ok: boolean;
  result: string;
  /** Frames the call started. */
  childIds?: string[];
}

/** Tools of one frame. */
export interface FrameTools {
  specs: ToolSpec[];
  run(call: ToolCall): Promise<ToolOutcome>;
}

/** Makes a frame's tools once its id and budget node are known. */
export type ToolsFactory = (frame: {
  traceId: string;
  budget: Budget;
  tree: InferenceTree;
}) => FrameTools;

export interface FrameState {
  requests: number;
  rounds: number;
  usage: Usage;
  recent: RecentOutputs;
  /** Messages already written to the trace. */
  recorded: number;
}
/** One frame's conversation, as its parts see it. */
export interface Conversation {
  tree: InferenceTree;
  spec: FrameSpec;
  budget: Budget;
  writer: TraceWriter;
  traceId: string;
  state: FrameState;
  messages: Message[];
  tools: FrameTools | undefined;
}

/** The parent link of a tree level's events. */
export function link(tree: InferenceTree): { parentId?: string } {
  return tree.parentId === undefined ? {} : { parentId: tree.parentId };
}
