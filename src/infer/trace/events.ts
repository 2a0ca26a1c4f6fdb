/**
 * Inference trace events: one JSON object per line in
 * `<logDir>/inferences/<traceId>.jsonl`, one file per frame. Every event
 * carries `type`, `v` (schema version) and `t` (ISO time). Additive changes
 * keep the version; renames or removals bump it and the reader keeps reading
 * the old ones (test/fixtures/inference-traces/).
 */

import type { FinishReason, Message, ToolCall, Usage } from '../../lm/model.js';
import type { CutFields } from '../../trace/bounded-fields.js';
import type { BudgetRemaining, SubtreeSpend } from '../budget.js';
import type { JsonSchema } from '../contract.js';
import type { IncompleteObservation } from '../observation.js';
import type { ViewRecord } from '../views.js';

export const INFERENCE_TRACE_SCHEMA_VERSION = 1;

interface Base {
  v: number;
  t: string;
  /** Text fields stored cut because they were over the bound: path -> full size and SHA-256. */
  cutFields?: CutFields;
}

/** First line: what the frame was asked and with what. */
export interface FrameTraceEvent extends Base {
  type: 'frame';
  traceId: string;
  /** The frame that started this one (a tool call or a policy), when there is one. */
  parentId?: string;
  /** What started it: `infer`, `map`, `policy:<name>` (subtasks), `synthesize`, a tool (`tool:infer`). */
  origin: string;
  task: string;
  views: ViewRecord[];
  contract: { kind: 'text' } | { kind: 'schema'; schema: JsonSchema };
  model: { id: string; endpoint: string };
  parameters: {
    effort?: string;
    capabilities: 'none' | 'read';
    maxToolRounds?: number;
    readRoots?: string[];
  };
  /** The budget when the frame started. */
  budget: BudgetRemaining;
}

/** A request about to go out: the messages added since the previous one (all of them the first time). */
export interface RequestTraceEvent extends Base {
  type: 'request';
  index: number;
  messages: Message[];
  maxTokens: number;
  tools: string[];
  toolChoice: 'auto' | 'none' | null;
}

/** What came back. */
export interface ResponseTraceEvent extends Base {
  type: 'response';
  index: number;
  content: string;
  reasoning: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  usage: Usage;
  /** Tokens charged to the budget (cached input is free). */
  charged: number;
  model: string;
  endpoint: string;
  latencyMs: number;
}

/** A request that failed: its tranche went back, the call stays spent. */
export interface RequestErrorTraceEvent extends Base {
  type: 'request_error';
  index: number;
  error: { name: string; message: string; statusCode?: number };
}

/** An answer that did not fit the contract, re-asked. */
export interface RepairTraceEvent extends Base {
  type: 'repair';
  index: number;
  problems: string[];
}

/** A tool call of a read frame and what it returned (bounded). */
export interface ToolTraceEvent extends Base {
  type: 'tool';
  round: number;
  call: ToolCall;
  ok: boolean;
  result: string;
  /** Full size of the result before it was cut for the model. */
  resultChars: number;
  /** Frames the call started. */
  childIds?: string[];
}

/** A frame started under this one. */
export interface ChildTraceEvent extends Base {
  type: 'child';
  traceId: string;
  origin: string;
}

/** Last line: how it ended. */
export interface OutcomeTraceEvent extends Base {
  type: 'outcome';
  status: 'ok' | 'incomplete' | 'error';
  value?: unknown;
  observation?: IncompleteObservation;
  error?: { name: string; message: string };
  requests: number;
  usage: Usage;
  /** What this frame's subtree charged to the budget. */
  spent: SubtreeSpend;
  budget: BudgetRemaining;
  elapsedMs: number;
}

export type InferenceTraceEvent =
  | FrameTraceEvent
  | RequestTraceEvent
  | ResponseTraceEvent
  | RequestErrorTraceEvent
  | RepairTraceEvent
  | ToolTraceEvent
  | ChildTraceEvent
  | OutcomeTraceEvent;

/** An event as the frame hands it over: the writer adds `v` and `t`. */
export type InferenceTraceInput = InferenceTraceEvent extends infer E
  ? E extends InferenceTraceEvent
    ? Omit<E, 'v' | 't'>
    : never
  : never;
