/**
 * The protocol-neutral parts of turning a received request body into a
 * MockRequest, shared by the OpenAI and Anthropic request parsers.
 */
import type { Message, ToolCall, ToolSpec } from '../lm/model.js';
import { isRecord } from '../util/safe-json.js';
import type { MockRequest } from './mock-policy.js';

/** Text of a content field that may be a string or a list of parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (typeof part === 'string') text += part;
    else if (
      part &&
      typeof part === 'object' &&
      typeof (part as { text?: unknown }).text === 'string'
    ) {
      text += (part as { text: string }).text;
    }
  }
  return text;
}

/** An assistant turn; `toolCalls` is set only when there are some. */
export function assistantMessage(content: string, toolCalls: ToolCall[]): Message {
  return toolCalls.length > 0
    ? { role: 'assistant', content, toolCalls }
    : { role: 'assistant', content };
}

/** A tool definition from its wire fields, whatever their JSON types. */
export function toolSpec(name: unknown, description: unknown, parameters: unknown): ToolSpec {
  return {
    name: String(name ?? ''),
    description: String(description ?? ''),
    parameters: isRecord(parameters) ? parameters : {},
  };
}

/** What a protocol's parser reads out of a request body; the rest is read the same way. */
export interface Conversation {
  messages: Message[];
  tools: ToolSpec[];
}

/** The request around its parsed conversation: model, stream flag and the raw parts. */
export function mockRequest(
  protocol: MockRequest['protocol'],
  body: Record<string, unknown>,
  headers: Record<string, string>,
  index: number,
  { messages, tools }: Conversation,
): MockRequest {
  return {
    protocol,
    model: typeof body.model === 'string' ? body.model : '',
    messages,
    tools,
    stream: body.stream === true,
    body,
    headers,
    index,
  };
}
