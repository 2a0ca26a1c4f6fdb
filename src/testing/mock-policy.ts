/**
 * The contract between the mock model server and the policies that script its
 * answers. A policy sees each request in a protocol-neutral form and returns
 * the reply (or a fault) to send back over real HTTP.
 */
import type { Message, ToolCall, ToolSpec, Usage } from '../lm/model.js';

/** A request as the mock server received it, normalised across protocols. */
export interface MockRequest {
  /** Which wire protocol the client spoke. */
  protocol: 'openai' | 'anthropic';
  /** Model name the client asked for. */
  model: string;
  /** Messages in provider-neutral form; a system prompt is the first message. */
  messages: Message[];
  tools: ToolSpec[];
  stream: boolean;
  /** The raw parsed JSON body, for assertions on extras (top_k, chat_template_kwargs, ...). */
  body: Record<string, unknown>;
  /** Request headers, lower-cased names. */
  headers: Record<string, string>;
  /** 0-based index of this request on the server. */
  index: number;
}

/** A failure the server injects instead of (or part-way through) a reply. */
export type MockFault =
  /** Answer with this status and body; `contentType` defaults to JSON (a 200 with text/html plays a web page). */
  | {
      kind: 'status';
      status: number;
      retryAfterSeconds?: number;
      body?: string;
      contentType?: string;
    }
  | { kind: 'hang' }
  | { kind: 'malformed-json' }
  /** Send this many stream chunks, then cut the connection. */
  | { kind: 'cut-stream'; afterChunks: number }
  /** Send this many stream chunks, then stall (keep the socket open, send nothing). */
  | { kind: 'stall-stream'; afterChunks: number };

/** What the policy answers. */
export interface MockReply {
  content?: string;
  reasoning?: string;
  /** How reasoning goes out: a separate field (default) or `<think>` tags inside content. */
  reasoningAs?: 'field' | 'think-tags';
  /** OpenAI protocol: which field carries reasoning. Default `reasoning_content`. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  toolCalls?: ToolCall[];
  finishReason?: 'stop' | 'length' | 'tool_calls';
  /** Usage to report; estimated from sizes when omitted. */
  usage?: Partial<Usage>;
  /** Extra latency for this reply in ms, on top of the server's configured latency. */
  delayMs?: number;
  /** Streaming: characters of text per chunk. Default 16 (tags get split across chunks). */
  chunkChars?: number;
  /** Streaming: pause between chunks in ms. Default 0 (the whole stream in one write). */
  chunkDelayMs?: number;
  /** Model name to report. Default the requested one. */
  model?: string;
  fault?: MockFault;
}

/** A policy: a function of the request. May be async. */
export type MockPolicy = (request: MockRequest) => MockReply | string | Promise<MockReply | string>;
