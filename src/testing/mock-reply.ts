/**
 * A policy's answer made concrete: defaults filled in, usage estimated, text
 * cut into stream pieces. Shared by the two protocol renderers.
 */
import type { Message, ToolCall, Usage } from '../lm/model.js';
import type { MockReply, MockRequest } from './mock-policy.js';

export interface PlannedReply {
  /** Content as it goes on the wire (with `<think>` tags when reasoning is sent that way). */
  content: string;
  /** Reasoning sent as a separate field or block ('' when none, or when sent as tags). */
  reasoning: string;
  reasoningField: 'reasoning_content' | 'reasoning';
  toolCalls: ToolCall[];
  finishReason: 'stop' | 'length' | 'tool_calls';
  usage: Usage;
  model: string;
  chunkChars: number;
}

export function planReply(reply: MockReply, request: MockRequest): PlannedReply {
  const toolCalls = reply.toolCalls ?? [];
  const reasoningText = reply.reasoning ?? '';
  const asTags = reply.reasoningAs === 'think-tags' && reasoningText !== '';
  const content = asTags
    ? `<think>${reasoningText}</think>${reply.content ?? ''}`
    : (reply.content ?? '');
  const outChars = (reply.content ?? '').length + reasoningText.length;
  const usage: Usage = {
    inputTokens: reply.usage?.inputTokens ?? estimateTokens(request.messages),
    outputTokens: reply.usage?.outputTokens ?? Math.max(1, Math.ceil(outChars / 4)),
    cachedInputTokens: reply.usage?.cachedInputTokens ?? 0,
  };
  return {
    content,
    reasoning: asTags ? '' : reasoningText,
    reasoningField: reply.reasoningField ?? 'reasoning_content',
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage,
    model: reply.model ?? (request.model || 'mock-model'),
    chunkChars: Math.max(1, reply.chunkChars ?? 16),
  };
}

function estimateTokens(messages: Message[]): number {
  let chars = 0;
  for (const message of messages) chars += message.content.length;
  return Math.max(1, Math.ceil(chars / 4));
}

/** Cuts text into pieces of `size` characters. */
export function pieces(text: string, size: number): string[] {
  if (text.length <= size) return text ? [text] : [];
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}
