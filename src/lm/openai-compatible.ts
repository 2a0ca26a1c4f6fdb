/**
 * OpenAI-compatible chat completions (vLLM, llama.cpp server, Ollama, SGLang,
 * hosted APIs), spoken directly over our own HTTP transport: the request body
 * is built here and the reply (JSON or SSE) read here. docs/profiles.md
 * ("How requests are sent") says why not the official SDK.
 */

import { isRecord } from '../util/safe-json.js';
import {
  type AttemptIO,
  type EndpointOptions,
  HttpEndpoint,
  type ModelSettings,
  type RawCompletion,
  ReplyError,
  type ResolvedRequest,
} from './endpoint-base.js';
import type { FinishReason, LanguageModel, Message, ToolCall, Usage } from './model.js';
import { parseEventData, postRequest, readEventStream, readJsonReply } from './reply-reader.js';
import { separateReasoning } from './think.js';
import { USER_AGENT } from './user-agent.js';

export interface OpenAICompatibleOptions extends EndpointOptions {
  /**
   * Send `enable_thinking` as `chat_template_kwargs` (vLLM, SGLang, llama.cpp
   * honour it). Default true, except on OpenAI's own API, which rejects it.
   */
  chatTemplateKwargs?: boolean;
  /** Body field for the output cap. Default `max_tokens` (`max_completion_tokens` on OpenAI's API). */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

/** One OpenAI-compatible server: one key and semaphore for every role on it. */
export class OpenAICompatibleEndpoint extends HttpEndpoint {
  readonly api = 'openai' as const;
  private readonly templateKwargs: boolean;
  private readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
  private readonly completionsUrl: string;

  constructor(options: OpenAICompatibleOptions) {
    super(options);
    const hosted = isOpenAIHosted(this.baseUrl);
    this.templateKwargs = options.chatTemplateKwargs ?? !hosted;
    this.maxTokensField =
      options.maxTokensField ?? (hosted ? 'max_completion_tokens' : 'max_tokens');
    this.completionsUrl = `${this.baseUrl}/chat/completions`;
  }

  protected headersFor(apiKey: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
    };
    // A keyless server gets no Authorization header at all.
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    return headers;
  }

  protected modelsUrl(): string {
    return `${this.baseUrl}/models`;
  }

  protected encode(request: ResolvedRequest, stream: boolean): string {
    return JSON.stringify(this.body(request, stream));
  }

  protected async send(
    body: string,
    request: ResolvedRequest,
    io: AttemptIO,
  ): Promise<RawCompletion> {
    const response = await postRequest(this.transport, this.completionsUrl, body, io);
    if (!io.stream) {
      return fromCompletion(await readJsonReply<WireCompletion>(response, io), request.model);
    }
    const acc = new StreamAccumulator(request.model);
    await readEventStream(response, io, (data) => {
      if (data === '[DONE]') return true;
      const chunk = parseEventData<WireChunk & { error?: unknown }>(data);
      if (chunk.error !== undefined) throw streamError(chunk.error);
      acc.add(chunk);
      return false;
    });
    return acc.finish();
  }

  private body(request: ResolvedRequest, stream: boolean): Record<string, unknown> {
    const body: Record<string, unknown> = {
      model: request.model,
      messages: toWireMessages(request.messages),
    };
    if (request.maxTokens !== undefined) body[this.maxTokensField] = request.maxTokens;
    for (const [key, value] of Object.entries(request.sampling)) {
      if (value !== undefined) body[key] = value;
    }
    if (request.thinking !== undefined && this.templateKwargs) {
      body.chat_template_kwargs = { enable_thinking: request.thinking };
    }
    if (request.reasoningEffort !== undefined) body.reasoning_effort = request.reasoningEffort;
    if (request.tools.length > 0) {
      body.tools = request.tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      }));
      if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
    }
    if (stream) {
      body.stream = true;
      body.stream_options = { include_usage: true };
    }
    return body;
  }
}

/** A standalone OpenAI-compatible model (its own endpoint). Use createEndpointPool to share one. */
export function createOpenAICompatibleModel(
  options: OpenAICompatibleOptions & ModelSettings,
): LanguageModel {
  return new OpenAICompatibleEndpoint(options).languageModel(options);
}

function isOpenAIHosted(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

function toWireMessages(messages: Message[]): unknown[] {
  return messages.map((message) => {
    switch (message.role) {
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
      case 'assistant':
        if (message.toolCalls && message.toolCalls.length > 0) {
          return {
            role: 'assistant',
            content: message.content || null,
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            })),
          };
        }
        return { role: 'assistant', content: message.content };
      default:
        return { role: message.role, content: message.content };
    }
  });
}

/** The parts of the wire format we read; servers differ, so every field is optional. */
interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}
interface WireToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}
interface WireMessage {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: WireToolCall[] | null;
}
interface WireCompletion {
  model?: string;
  choices?: { message?: WireMessage; finish_reason?: string | null }[];
  usage?: WireUsage | null;
}
interface WireChunk {
  model?: string;
  choices?: { delta?: WireMessage; finish_reason?: string | null }[];
  usage?: WireUsage | null;
}

function usageOf(usage: WireUsage | null | undefined): Usage {
  return {
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
    cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
  };
}

function finishOf(reason: string | null | undefined, toolCalls: number): FinishReason {
  switch (reason) {
    case 'length':
    case 'content_filter':
      return reason;
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'stop':
    case 'eos':
    case null:
    case undefined:
      return toolCalls > 0 ? 'tool_calls' : 'stop';
    default:
      return 'other';
  }
}

function assemble(
  rawContent: string,
  fieldReasoning: string,
  toolCalls: ToolCall[],
  finish: string | null | undefined,
  usage: Usage,
  model: string,
): RawCompletion {
  const { content, reasoning } = separateReasoning(rawContent, [fieldReasoning]);
  return {
    content,
    reasoning,
    toolCalls,
    finishReason: finishOf(finish, toolCalls.length),
    usage,
    model,
  };
}

function fromCompletion(reply: WireCompletion, requested: string): RawCompletion {
  const choice = reply.choices?.[0];
  const message = choice?.message ?? {};
  const toolCalls = (message.tool_calls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index}`,
    name: call.function?.name ?? '',
    arguments: call.function?.arguments ?? '',
  }));
  return assemble(
    message.content ?? '',
    message.reasoning_content ?? message.reasoning ?? '',
    toolCalls,
    choice?.finish_reason,
    usageOf(reply.usage),
    reply.model || requested,
  );
}

/** Builds a reply from stream chunks: text, reasoning, tool-call deltas by index, usage. */
class StreamAccumulator {
  private content = '';
  private reasoning = '';
  private finishReason: string | null | undefined;
  private usage: Usage | undefined;
  private readonly calls: { id: string; name: string; arguments: string }[] = [];
  private done = false;

  constructor(private model: string) {}

  add(chunk: WireChunk): void {
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta;
    if (delta) {
      if (delta.content) this.content += delta.content;
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) this.reasoning += reasoning;
      if (delta.tool_calls) for (const call of delta.tool_calls) this.addCall(call);
    }
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      this.done = true;
    }
  }

  finish(): RawCompletion {
    if (!this.done) {
      throw new ReplyError('the stream ended before the reply finished (no finish_reason)');
    }
    const toolCalls = this.calls.filter(Boolean).map((call, index) => ({
      id: call.id || `call_${index}`,
      name: call.name,
      arguments: call.arguments,
    }));
    return assemble(
      this.content,
      this.reasoning,
      toolCalls,
      this.finishReason,
      this.usage ?? { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
      this.model,
    );
  }

  private addCall(delta: WireToolCall): void {
    const index = delta.index ?? this.calls.length;
    let call = this.calls[index];
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.calls[index] = call;
    }
    if (delta.id) call.id = delta.id;
    if (delta.function?.name) call.name += delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
  }
}

/** An error object sent inside a 200 stream: retryable unless it names a 4xx status. */
function streamError(error: unknown): Error {
  const fields = isRecord(error) ? error : {};
  const message = typeof fields.message === 'string' ? fields.message : JSON.stringify(error);
  const code = Number(fields.code ?? fields.status);
  const status = Number.isInteger(code) && code >= 400 && code < 600 ? code : 500;
  return Object.assign(new Error(`error in stream: ${message}`), { status });
}
