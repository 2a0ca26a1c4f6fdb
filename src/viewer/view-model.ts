/**
 * The viewer's one model of a run, whichever format the file was written in
 * (reclamo's own trajectory or the upstream Python RLM package's log). The
 * header is small and sent whole; turn details are built on demand.
 */

/** Which writer produced the file. */
export type TrajectoryFormat = 'reclamo' | 'upstream';

/** Token counts; `null` fields mean the file did not record them. */
export interface TokenCount {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

/** A text cut to a bounded preview, with the size of the whole. */
export interface Preview {
  text: string;
  /** Characters in the full text. */
  chars: number;
  /** True when `text` is shorter than the full text. */
  cut: boolean;
  sha256?: string;
}

/** How the run ended. */
export interface Ending {
  /** `final`: the model answered; `forced`: a forced finish; `limit`: a limit stopped it; `error`; `unfinished`: no end record. */
  kind: 'final' | 'forced' | 'limit' | 'error' | 'unfinished';
  /** reclamo's stop reason (`final`, `max_iterations`, ...) when recorded. */
  stopReason?: string;
  /** Where a forced answer came from (`model`, `answer_dict`, `variable`, `reply_text`, `empty`). */
  forcedSource?: string;
  forcedReason?: string;
  variable?: string;
  error?: string;
}

/** A line that could not be read, shown in place. */
export interface LineIssue {
  /** 1-based line number in the file. */
  line: number;
  error: string;
  /** The start of the line as written. */
  preview: string;
  chars: number;
}

/** One row of the run's timeline; only `turn` rows have details loaded on demand. */
export type TimelineEntry =
  | TurnSummary
  | ({ kind: 'issue' } & LineIssue)
  | {
      kind: 'context';
      at?: string;
      prompt: Preview;
      rootPrompt?: Preview;
      sessionMode?: string;
      environment?: string;
    }
  | {
      kind: 'forced_finish';
      at?: string;
      reason: string;
      source: string;
      variable?: string;
      answer: Preview;
      content?: Preview;
      usage?: TokenCount;
      /** Why the forced-finish request failed, when it did. */
      error?: string;
    }
  | { kind: 'final'; at?: string; answer: Preview; stopReason: string; error?: string }
  | { kind: 'unknown'; line: number; type: string; preview: string };

export interface TurnSummary {
  kind: 'turn';
  /** Turn number as the file gives it (1-based; upstream's restarts per completion). */
  turn: number;
  at?: string;
  /** Wall time of the turn in ms, when known. */
  ms: number | null;
  modelMs: number | null;
  replMs: number | null;
  harnessMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  blocks: number;
  subcalls: number;
  children: number;
  errors: number;
  nudges: number;
  compactions: number;
  /** True when this turn produced an accepted final answer. */
  final: boolean;
  /** True when the file has sub-call or compaction records for the turn but no turn record. */
  partial: boolean;
  preview: string;
}

export interface EndpointView {
  baseUrl: string;
  api?: string;
  roles: string[];
  concurrency?: number;
}

/** Everything about a run except turn contents. */
export interface RunHeader {
  format: TrajectoryFormat;
  /** Schema version of a reclamo file. */
  version?: number;
  runId?: string;
  question: Preview;
  answer: Preview | null;
  ending: Ending;
  startedAt?: string;
  model?: string;
  depth: number;
  maxDepth?: number;
  endpoints: EndpointView[];
  parent?: { runId: string; file: string; subcall: number };
  /** Other metadata worth showing, flattened to short strings. */
  settings: [string, string][];
  counts: {
    turns: number;
    subcalls: number;
    children: number;
    compactions: number;
    nudges: number;
    errors: number;
    /** Root turns taken inside child RLMs, when the final record gives it. */
    childTurns?: number;
  };
  tokens: { root: TokenCount | null; sub: TokenCount | null };
  subcallsByKind: Record<string, number>;
  /** Wall time of the run, and its split; `harnessMs` is null where the format does not record it. */
  time: { totalMs: number | null; modelMs: number; replMs: number; harnessMs: number | null };
  timeline: TimelineEntry[];
  issues: LineIssue[];
}

export interface ExecResultView {
  stdout: string;
  stderr: string;
  stdoutChars: number;
  stderrChars: number;
  truncated: boolean;
  error?: { type: string; message: string; line?: number };
  elapsedMs: number | null;
  timedOut: boolean;
  restarted?: string;
  /** Upstream: the REPL's variables after the block, serialised. */
  locals?: [string, string][];
  finalAnswer?: string;
}

export interface SubcallView {
  /** 1-based running count in the run, when recorded. */
  count: number | null;
  kind: string;
  depth: number | null;
  at?: string;
  prompt: Preview;
  answer: Preview;
  latencyMs: number | null;
  endpoint?: string;
  model?: string;
  usage?: TokenCount;
  error?: string;
  /** A child RLM: a file beside this one, or (upstream) its log inline. */
  child?: { file: string } | { inline: RunView };
}

export interface BlockView {
  index: number;
  code: string;
  result?: ExecResultView;
  skipped?: string;
  subcalls: SubcallView[];
}

/** A compaction or context-overflow record, shown before the turn it preceded. */
export type TurnEvent =
  | {
      kind: 'compaction';
      at?: string;
      beforeTokens: number;
      afterTokens: number;
      budgetTokens: number;
      elidedTurns: number[];
      summarized: boolean;
      shrunkMessages: number;
      estimator?: string;
      /** Tokens above which compaction starts. */
      compactAtTokens?: number;
      summarizedTurns?: number[];
      summaryNote?: string;
      shrunk?: { turn: number; block?: number; fromChars: number; toChars: number }[];
      /** Still over the limit after every step: the request was not sent. */
      overflow?: boolean;
    }
  | {
      kind: 'context_overflow';
      at?: string;
      estimatedTokens: number;
      budgetTokens: number;
      contextTokens: number;
      maxTokens: number;
      action: string;
    };

export interface TurnView {
  turn: number;
  at?: string;
  /** False when only sub-call or compaction records exist for the turn. */
  recorded: boolean;
  content: string;
  reasoning: string;
  finishReason?: string;
  /** How a reply cut by the output limit was handled (`retried_without_thinking`, `continued`). */
  cut?: string;
  endpoint?: string;
  model?: string;
  usage?: TokenCount;
  timings?: { modelMs: number; replMs: number; harnessMs: number };
  ms: number | null;
  /** Upstream: size of the message list sent and its last user message. */
  prompt?: { messages: number; chars: number; last: Preview | null };
  events: TurnEvent[];
  blocks: BlockView[];
  /** Sub-calls whose block is not in the turn record. */
  looseSubcalls: SubcallView[];
  nudges: { kind: string; text: string }[];
  final?: {
    kind: string;
    accepted: boolean;
    reason?: string;
    answer?: string;
    variable?: string;
  };
}

/** A whole run: header plus one detail per timeline entry (null for non-turn rows). */
export interface RunView {
  header: RunHeader;
  details: (TurnView | null)[];
}
