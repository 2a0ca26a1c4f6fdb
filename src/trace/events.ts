/**
 * Trajectory events: one JSON object per line in `runs/<UTC stamp>-<id>.jsonl`.
 * Every event carries `type`, `v` (schema version) and `t` (ISO time).
 * Additive changes keep the version; renames or removals bump it, and the
 * reader keeps reading the old versions (see test/fixtures/trajectories/).
 */
import type { FinishReason, Usage } from '../lm/model.js';
import type { ContextShape } from '../sandbox/sandbox.js';
import type { CutFields } from './bounded-fields.js';

export const TRAJECTORY_SCHEMA_VERSION = 1;

interface EventBase {
  v: number;
  /** ISO 8601 UTC time the event was written. */
  t: string;
  /** Text fields stored cut because they were over the bound: path -> full size and SHA-256. */
  cutFields?: CutFields;
}

/** An endpoint as recorded: never its key. */
export interface EndpointRecord {
  baseUrl: string;
  api: 'openai' | 'anthropic' | 'scripted';
  roles: string[];
  concurrency: number;
}

export interface MetadataEvent extends EventBase {
  type: 'metadata';
  runId: string;
  query: string;
  context: ContextShape;
  depth: number;
  maxDepth: number;
  /** Profile name and its settings with every key source removed. */
  profile: { name: string; settings: Record<string, unknown> };
  endpoints: EndpointRecord[];
  promptVersion: string;
  protocol: 'fence' | 'tools';
  /** `reclamo` or `upstream-rlm-v0`. */
  plannerStyle: string;
  /** Set on a child RLM's trajectory. */
  parent?: { runId: string; file: string; subcall: number };
  /** The token estimator root requests are measured with. */
  estimator?: string;
  /** The root request budget in estimated tokens. */
  contextBudget?: {
    contextTokens: number;
    maxTokens: number;
    /** No request above this is sent. */
    limitTokens: number;
    /** Compaction starts above this. */
    compactAtTokens: number;
    /** compaction_threshold_pct as set (profile, option or flag), when it was. */
    compactionThresholdPct?: number;
    /** hard_ceiling_pct as set (profile, option or flag), when it was. */
    hardCeilingPct?: number;
  };
}

export interface BlockRecord {
  code: string;
  /** Omitted when the block was skipped (deadline passed, or a tool_call reply cut the rest). */
  result?: {
    stdout: string;
    stderr: string;
    stdoutChars: number;
    stderrChars: number;
    truncated: boolean;
    error?: { type: string; message: string; line?: number };
    elapsedMs: number;
    hostCalls: number;
    timedOut: boolean;
    restarted?: string;
  };
  skipped?: string;
}

export interface FinalDecision {
  kind: 'final' | 'final_var' | 'answer_dict' | 'final_answer_tool';
  /** Accepted or why it was rejected. */
  accepted: boolean;
  reason?: string;
  answer?: string;
  variable?: string;
}

export interface IterationEvent extends EventBase {
  type: 'iteration';
  turn: number;
  content: string;
  reasoning: string;
  blocks: BlockRecord[];
  nudges: { kind: string; text: string }[];
  final: FinalDecision | null;
  endpoint: string;
  model: string;
  usage: Usage;
  finishReason: FinishReason;
  timings: { modelMs: number; replMs: number; harnessMs: number };
  /** Set when the reply was cut by the output limit and handled: retried without thinking, or continued. */
  cut?: 'retried_without_thinking' | 'continued';
  /** Tools protocol: the reply's function calls, as the server sent them. */
  toolCalls?: { id: string; name: string; arguments: string }[];
  /** Tools protocol: the reply wrote code or FINAL as text; `honoured` when it was acted on (once per run). */
  protocolSlip?: { kind: 'code' | 'final'; honoured: boolean };
}

export type SubcallKind = 'llm_query' | 'llm_query_batched' | 'rlm_query' | 'compaction_summary';

export interface SubcallEvent extends EventBase {
  type: 'subcall';
  depth: number;
  kind: SubcallKind;
  turn: number;
  block: number;
  /** 1-based running count of sub-calls in this run. */
  count: number;
  promptChars: number;
  answerChars: number;
  promptPreview: string;
  answerPreview: string;
  promptSha256: string;
  answerSha256: string;
  latencyMs: number;
  endpoint?: string;
  model?: string;
  usage?: Usage;
  error?: string;
  /** File name (same directory) of a child RLM's trajectory. */
  child?: string;
}

export interface CompactionEvent extends EventBase {
  type: 'compaction';
  turn: number;
  beforeTokens: number;
  afterTokens: number;
  budgetTokens: number;
  elidedTurns: number[];
  summarized: boolean;
  shrunkMessages: number;
  estimator: string;
  /** Tokens above which compaction starts (the threshold, else the budget). */
  compactAtTokens?: number;
  /** Turns whose messages were replaced by the summary. */
  summarizedTurns?: number[];
  /** Why the summary step was skipped or failed, when stubs were not enough. */
  summaryNote?: string;
  /** Each output cut by the shrink step. */
  shrunk?: { turn: number; block?: number; fromChars: number; toChars: number }[];
  /** Still over the limit after every step: the request was not sent. */
  overflow?: boolean;
  /** Compaction's own time in ms, the summary sub-call excluded. */
  elapsedMs?: number;
}

export interface ContextOverflowEvent extends EventBase {
  type: 'context_overflow';
  turn: number;
  estimatedTokens: number;
  budgetTokens: number;
  contextTokens: number;
  maxTokens: number;
  action: string;
}

export type ForcedFinishSource = 'model' | 'answer_dict' | 'variable' | 'reply_text' | 'empty';

export interface ForcedFinishEvent extends EventBase {
  type: 'forced_finish';
  reason: string;
  source: ForcedFinishSource;
  variable?: string;
  answer: string;
  content?: string;
  usage?: Usage;
  /** Why the forced-finish request failed, when it did. */
  error?: string;
  /** Candidates passed over for holding more than the 10,000,000 characters an answer may have. */
  tooLong?: { source: ForcedFinishSource; variable?: string; chars: number }[];
}

export type StopReason =
  | 'final'
  | 'answer_dict'
  | 'max_iterations'
  | 'max_timeout'
  | 'error_limit'
  | 'token_budget'
  | 'context_overflow'
  | 'endpoint_error'
  | 'sandbox_error'
  | 'aborted';

export interface FinalEvent extends EventBase {
  type: 'final';
  answer: string;
  stopReason: StopReason;
  turns: number;
  subcalls: number;
  usage: { root: Usage; sub: Usage };
  elapsedMs: number;
  /** Root turns taken inside child RLMs (depth 2 and deeper). */
  childTurns?: number;
  stats: {
    execs: number;
    syntaxErrors: number;
    rejectedFinals: number;
    protocolSlips: number;
    nudges: number;
  };
  error?: string;
}

export type TrajectoryEvent =
  | MetadataEvent
  | IterationEvent
  | SubcallEvent
  | CompactionEvent
  | ContextOverflowEvent
  | ForcedFinishEvent
  | FinalEvent;
