/**
 * The model layer's contract. The loop talks to this interface only; the
 * adapters (OpenAI-compatible, Anthropic) are the only code that builds HTTP
 * requests.
 */

/** A function call the model asked for (tools protocol, or tool_calls in a reply). */
export interface ToolCall {
  /** Id the server gave the call; echoed back in the matching tool message. */
  id: string;
  /** Function name, e.g. `execute_python`. */
  name: string;
  /** Raw JSON text of the arguments, exactly as the server sent it. */
  arguments: string;
}

/** One chat message in provider-neutral form. */
export type Message =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A function the model may call, described by a JSON schema. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/**
 * Sampling settings. Fields outside the OpenAI schema (top_k, min_p,
 * repetition_penalty) are sent in the request body as extras.
 */
export interface Sampling {
  temperature?: number;
  top_p?: number;
  top_k?: number;
  min_p?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  repetition_penalty?: number;
  seed?: number;
}

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/** What the caller asks of one generation. Unset fields take the model's role defaults. */
export interface GenerateRequest {
  messages: Message[];
  /** Output token cap for this request. */
  maxTokens?: number;
  /** Turn thinking on or off (`chat_template_kwargs.enable_thinking`, Anthropic thinking). */
  thinking?: boolean;
  reasoningEffort?: ReasoningEffort;
  sampling?: Sampling;
  tools?: ToolSpec[];
  /**
   * Whether the model may call the tools: `auto` (default) or `none`, which
   * keeps the definitions in the request (and so its cached prefix) but asks
   * for an answer without calls.
   */
  toolChoice?: 'auto' | 'none';
  /** Called whenever bytes of the reply arrive (content-free; for progress displays). */
  onReceive?: () => void;
  /** Cancels the request and any retries. */
  abortSignal?: AbortSignal;
  /** Absolute time (ms since epoch) after which the request must not run; caps the timeout. */
  deadline?: number;
  /** Per-request timeout in ms (before the deadline cap). */
  timeoutMs?: number;
}

/** Token usage reported by the server (zeros when it reported none). */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens served from the server's prefix cache. */
  cachedInputTokens: number;
}

/** Why generation stopped. `length` means the reply was cut by the output limit. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

/** One model reply, with reasoning separated from content. */
export interface Completion {
  /**
   * The visible reply. Think-free by contract: every LanguageModel moves
   * `<think>` blocks into `reasoning` (splitThink), so callers never strip them.
   */
  content: string;
  /** Reasoning text (separate field or `<think>` block); empty when none came back. */
  reasoning: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  usage: Usage;
  /** Model name the server reported (or the requested one). */
  model: string;
  /** Base URL of the endpoint that answered. Never carries a key. */
  endpoint: string;
  /** Wall time of the request including retries, in ms. */
  latencyMs: number;
}

/** A model bound to one endpoint and one role's defaults. */
export interface LanguageModel {
  /** The model name sent to the server. */
  readonly modelId: string;
  /** Base URL of the endpoint (for logs and trajectories). */
  readonly endpoint: string;
  /** Context window in tokens, when known. */
  readonly contextTokens?: number;
  /** Default output cap in tokens, when set. */
  readonly maxTokens?: number;
  doGenerate(request: GenerateRequest): Promise<Completion>;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
  };
}
