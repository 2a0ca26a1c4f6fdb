/** The shape every root prompt version provides: its text and its defaults. */

/** Defaults a prompt version carries; a value set explicitly always wins. */
export interface PromptDefaults {
  maxIterations: number;
  /** Characters of each block's output shown to the model (head and tail kept). */
  outputTruncateChars: number;
  /** Root max_tokens when thinking is on (or unknown). */
  rootMaxTokensThinking: number;
  /** Root max_tokens when thinking is off. */
  rootMaxTokensNoThinking: number;
  subMaxTokens: number;
  maxSubcallsPerRun: number;
  maxSubcallsPerExec: number;
  /** Per-request timeout for root and sub requests, in seconds. */
  requestTimeoutSeconds: number;
  /** Wall-clock bound of the whole run, in seconds. */
  maxTimeoutSeconds: number;
  /** A reply cut part-way by the output limit, with no usable action, is continued once. */
  continueCutReplies: boolean;
  /** Per-call size the prompt advertises: a fixed number, or derived from the sub model's window. */
  subcallChars: number | 'derived';
}

/** What the system prompt is built from. */
export interface SystemPromptOptions {
  /** Per-call size advertised for llm_query, in characters. */
  subcallChars: number;
  maxSubcallsPerExec: number;
  maxSubcallsPerRun: number;
  outputTruncateChars: number;
  /** rlm_query starts a child RLM (depth + 1 < max depth); otherwise it is not offered. */
  childRlm: boolean;
  /** Seconds one execution may take. */
  execTimeoutSeconds: number;
  /** How the model acts: fenced code and FINAL text (default), or tool calls. */
  protocol?: 'fence' | 'tools';
}

export interface PromptVersion {
  id: 'v0.1' | 'v0.2';
  defaults: PromptDefaults;
  system(options: SystemPromptOptions): string;
  /** Text of the decompose nudge for this version. */
  decompose(sizes: { promptChars: number; contextChars: number; perCallChars: number }): string;
}
