import type { Completion, GenerateRequest, LanguageModel, Usage } from '../lm/model.js';
import { separateReasoning } from '../lm/think.js';

/** A scripted reply: plain content text, or the parts of a completion to return. */
export type ScriptedReply = string | Partial<Omit<Completion, 'latencyMs'>>;

/** One reply for every call, a list consumed one per call, or a function of the request. */
export type ScriptedReplies =
  | ScriptedReply
  | ScriptedReply[]
  | ((request: GenerateRequest, callIndex: number) => ScriptedReply | Promise<ScriptedReply>);

export interface ScriptedModelOptions {
  replies: ScriptedReplies;
  modelId?: string;
  endpoint?: string;
  contextTokens?: number;
  maxTokens?: number;
  /** Usage reported when a reply does not give its own. */
  usage?: Usage;
}

/**
 * A LanguageModel whose answers are scripted, for tests. It records every
 * request it got in `calls`. Running past the end of a reply list throws.
 * Like the HTTP adapters, it moves `<think>` blocks of a scripted content
 * into `reasoning`, so `content` is think-free.
 */
export class ScriptedModel implements LanguageModel {
  readonly modelId: string;
  readonly endpoint: string;
  readonly contextTokens?: number;
  readonly maxTokens?: number;
  readonly calls: GenerateRequest[] = [];
  private readonly replies: ScriptedReplies;
  private readonly usage: Usage;

  constructor(options: ScriptedModelOptions) {
    this.replies = options.replies;
    this.modelId = options.modelId ?? 'scripted';
    this.endpoint = options.endpoint ?? 'scripted://model';
    if (options.contextTokens !== undefined) this.contextTokens = options.contextTokens;
    if (options.maxTokens !== undefined) this.maxTokens = options.maxTokens;
    this.usage = options.usage ?? { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0 };
  }

  async doGenerate(request: GenerateRequest): Promise<Completion> {
    const index = this.calls.length;
    this.calls.push(request);
    request.abortSignal?.throwIfAborted();
    const reply = await this.pick(request, index);
    const parts = typeof reply === 'string' ? { content: reply } : reply;
    // Think-free content, as every LanguageModel returns it: scripted `<think>` tags become reasoning.
    const { content, reasoning } = separateReasoning(parts.content ?? '', [parts.reasoning ?? '']);
    return {
      content,
      reasoning,
      toolCalls: parts.toolCalls ?? [],
      finishReason:
        parts.finishReason ?? ((parts.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop'),
      usage: parts.usage ?? this.usage,
      model: parts.model ?? this.modelId,
      endpoint: parts.endpoint ?? this.endpoint,
      latencyMs: 0,
    };
  }

  private async pick(request: GenerateRequest, index: number): Promise<ScriptedReply> {
    const replies = this.replies;
    if (typeof replies === 'function') return replies(request, index);
    if (!Array.isArray(replies)) return replies;
    const reply = replies[index];
    if (reply === undefined) {
      throw new Error(
        `ScriptedModel: no reply scripted for call ${index + 1} (${replies.length} scripted)`,
      );
    }
    return reply;
  }
}
