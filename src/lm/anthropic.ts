/**
 * Anthropic Messages API, spoken directly over our own HTTP transport (see
 * docs/profiles.md, "How requests are sent"). Thinking blocks become `reasoning`; cache reads
 * become `cachedInputTokens`.
 */

import { isRecord, safeParseJson } from '../util/safe-json.js';
import {
  type AttemptIO,
  type EndpointOptions,
  HttpEndpoint,
  type ModelSettings,
  type RawCompletion,
  ReplyError,
  type ResolvedRequest,
} from './endpoint-base.js';
import type {
  FinishReason,
  LanguageModel,
  Message,
  ReasoningEffort,
  ToolCall,
  Usage,
} from './model.js';
import { parseEventData, postRequest, readEventStream, readJsonReply } from './reply-reader.js';
import { separateReasoning } from './think.js';
import { USER_AGENT } from './user-agent.js';

/** Output cap when neither the role nor the request sets one (the API requires it). */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** The API version every request names (the one the official SDK 1.x sends). */
export const ANTHROPIC_VERSION = '2026-10-21';

const THINKING_BUDGET: Record<ReasoningEffort, number> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16_384,
};

export type AnthropicOptions = EndpointOptions;

/** One Anthropic Messages endpoint: one key and semaphore for every role on it. */
export class AnthropicEndpoint extends HttpEndpoint {
  readonly api = 'anthropic' as const;
  /** The base URL without a trailing `/v1` (both spellings are accepted). */
  private readonly root = this.baseUrl.replace(/\/v1$/, '');
  private readonly messagesUrl = `${this.root}/v1/messages`;

  protected headersFor(apiKey: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'anthropic-version': ANTHROPIC_VERSION,
      'user-agent': USER_AGENT,
    };
    // Bearer, as the official SDK 1.x sends the key.
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    return headers;
  }

  protected modelsUrl(): string {
    return `${this.root}/v1/models`;
  }

  protected encode(request: ResolvedRequest, stream: boolean): string {
    const body = toWireRequest(request);
    if (stream) body.stream = true;
    return JSON.stringify(body);
  }

  protected async send(
    body: string,
    request: ResolvedRequest,
    io: AttemptIO,
  ): Promise<RawCompletion> {
    const response = await postRequest(this.transport, this.messagesUrl, body, io);
    const acc = new MessageAccumulator(request.model);
    if (!io.stream) {
      acc.whole(await readJsonReply<WireMessage>(response, io));
      return acc.finish();
    }
    await readEventStream(response, io, (data) => {
      const event = parseEventData<WireEvent | { type: 'error'; error?: unknown }>(data);
      if (event.type === 'error') throw streamError((event as { error?: unknown }).error);
      acc.event(event as WireEvent);
      return event.type === 'message_stop';
    });
    return acc.finish();
  }
}

/** A standalone Anthropic model (its own endpoint). Use createEndpointPool to share one. */
export function createAnthropicModel(options: AnthropicOptions & ModelSettings): LanguageModel {
  return new AnthropicEndpoint(options).languageModel(options);
}

function toWireRequest(request: ResolvedRequest): Record<string, unknown> {
  const maxTokens = request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS;
  const { system, messages } = toWireMessages(request.messages);
  const body: Record<string, unknown> = { model: request.model, max_tokens: maxTokens, messages };
  if (system) body.system = system;
  const budget = Math.min(
    THINKING_BUDGET[request.reasoningEffort ?? 'medium'],
    Math.floor(maxTokens * 0.75),
  );
  const thinking = request.thinking === true && budget >= 1024;
  const { temperature, top_p, top_k } = request.sampling;
  if (thinking) {
    body.thinking = { type: 'enabled', budget_tokens: budget };
    // With thinking on the API accepts only top_p in [0.95, 1] among the sampling fields.
    if (top_p !== undefined && top_p >= 0.95) body.top_p = top_p;
  } else {
    if (temperature !== undefined) body.temperature = temperature;
    if (top_p !== undefined) body.top_p = top_p;
    if (top_k !== undefined) body.top_k = top_k;
  }
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    }));
    if (request.toolChoice !== undefined) body.tool_choice = { type: request.toolChoice };
  }
  return body;
}

type WireBlock = Record<string, unknown>;
interface WireTurn {
  role: 'user' | 'assistant';
  content: string | WireBlock[];
}

function toWireMessages(messages: Message[]): { system: string; messages: WireTurn[] } {
  const system: string[] = [];
  const turns: WireTurn[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        turns.push({ role: 'user', content: message.content });
        break;
      case 'assistant': {
        const blocks: WireBlock[] = [];
        if (message.content) blocks.push({ type: 'text', text: message.content });
        for (const call of message.toolCalls ?? []) {
          const input = safeParseJson(call.arguments);
          blocks.push({
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: input.ok && isRecord(input.value) ? input.value : {},
          });
        }
        if (blocks.length === 0) blocks.push({ type: 'text', text: '(no reply)' });
        turns.push({ role: 'assistant', content: blocks });
        break;
      }
      case 'tool': {
        const block = {
          type: 'tool_result',
          tool_use_id: message.toolCallId,
          content: message.content,
        };
        const last = turns[turns.length - 1];
        // Results of one assistant turn's calls travel together in one user turn.
        if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(block);
        else turns.push({ role: 'user', content: [block] });
        break;
      }
    }
  }
  return { system: system.join('\n\n'), messages: turns };
}

/** The parts of the wire format we read. */
interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}
interface WireContent {
  type: string;
  text?: string;
  thinking?: string;
  id?: string;
  name?: string;
  input?: unknown;
}
interface WireMessage {
  model?: string;
  content?: WireContent[];
  stop_reason?: string | null;
  usage?: WireUsage;
}
type WireEvent =
  | { type: 'message_start'; message: WireMessage }
  | { type: 'content_block_start'; index: number; content_block: WireContent }
  | {
      type: 'content_block_delta';
      index: number;
      delta: { type: string; text?: string; thinking?: string; partial_json?: string };
    }
  | { type: 'message_delta'; delta: { stop_reason?: string | null }; usage?: WireUsage }
  | { type: 'message_stop' }
  | { type: 'content_block_stop' | 'ping' };

interface Block {
  type: string;
  text: string;
  id: string;
  name: string;
  json: string;
  input: unknown;
}

/** Builds a reply from a whole message or from stream events. */
class MessageAccumulator {
  private readonly blocks: Block[] = [];
  private usage: WireUsage = {};
  private stopReason: string | null | undefined;
  private done = false;

  constructor(private model: string) {}

  whole(message: WireMessage): void {
    this.start(message);
    for (const content of message.content ?? []) this.blocks.push(blockOf(content));
    this.stopReason = message.stop_reason;
    this.done = true;
  }

  event(event: WireEvent): void {
    switch (event.type) {
      case 'message_start':
        this.start(event.message);
        break;
      case 'content_block_start':
        this.blocks[event.index] = blockOf(event.content_block);
        break;
      case 'content_block_delta': {
        const block = this.blocks[event.index];
        if (!block) break;
        const delta = event.delta;
        if (delta.text) block.text += delta.text;
        if (delta.thinking) block.text += delta.thinking;
        if (delta.partial_json) block.json += delta.partial_json;
        break;
      }
      case 'message_delta':
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        if (event.usage) this.usage = { ...this.usage, ...definedOnly(event.usage) };
        break;
      case 'message_stop':
        this.done = true;
        break;
    }
  }

  finish(): RawCompletion {
    if (!this.done)
      throw new ReplyError('the stream ended before the reply finished (no message_stop)');
    const text: string[] = [];
    const thinking: string[] = [];
    const toolCalls: ToolCall[] = [];
    for (const block of this.blocks) {
      if (!block) continue;
      if (block.type === 'text') text.push(block.text);
      else if (block.type === 'thinking') thinking.push(block.text);
      else if (block.type === 'tool_use') {
        toolCalls.push({
          id: block.id,
          name: block.name,
          arguments: block.json || JSON.stringify(block.input ?? {}),
        });
      }
    }
    const { content, reasoning } = separateReasoning(text.join(''), thinking);
    return {
      content,
      reasoning,
      toolCalls,
      finishReason: finishOf(this.stopReason),
      usage: usageOf(this.usage),
      model: this.model,
    };
  }

  private start(message: WireMessage): void {
    if (message.model) this.model = message.model;
    if (message.usage) this.usage = definedOnly(message.usage);
  }
}

function blockOf(content: WireContent): Block {
  const input = content.input;
  const hasInput = isRecord(input) && Object.keys(input).length > 0;
  return {
    type: content.type,
    text: content.text ?? content.thinking ?? '',
    id: content.id ?? '',
    name: content.name ?? '',
    // Streamed tool_use blocks start with an empty input and send the JSON as deltas.
    json: hasInput ? JSON.stringify(input) : '',
    input,
  };
}

function definedOnly(usage: WireUsage): WireUsage {
  const out: WireUsage = {};
  for (const [key, value] of Object.entries(usage)) {
    if (typeof value === 'number') out[key as keyof WireUsage] = value;
  }
  return out;
}

function usageOf(usage: WireUsage): Usage {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  return {
    // Anthropic counts cached prompt tokens apart; ours is the whole prompt.
    inputTokens: (usage.input_tokens ?? 0) + cacheRead + cacheWrite,
    outputTokens: usage.output_tokens ?? 0,
    cachedInputTokens: cacheRead,
  };
}

function finishOf(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
    case null:
    case undefined:
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}

/** An `error` event inside a 200 stream: overloaded and API errors are retryable. */
function streamError(error: unknown): Error {
  const fields = isRecord(error) ? error : {};
  const type = typeof fields.type === 'string' ? fields.type : 'api_error';
  const message = typeof fields.message === 'string' ? fields.message : type;
  const status =
    type === 'overloaded_error'
      ? 529
      : type === 'rate_limit_error'
        ? 429
        : type === 'api_error'
          ? 500
          : 400;
  return Object.assign(new Error(`error in stream: ${type}: ${message}`), { status });
}
