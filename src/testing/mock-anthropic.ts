/** The mock server's Anthropic Messages side: request normalisation and reply rendering. */
import type { Message, ToolCall, ToolSpec } from '../lm/model.js';
import { isRecord, safeParseJson } from '../util/safe-json.js';
import { type PlannedReply, pieces } from './mock-reply.js';
import { assistantMessage, type Conversation, textOf, toolSpec } from './mock-request.js';

/** The messages (the system prompt first) and tools of a Messages request body. */
export function anthropicConversation(body: Record<string, unknown>): Conversation {
  const messages: Message[] = [];
  const system = textOf(body.system);
  if (system) messages.push({ role: 'system', content: system });
  for (const raw of Array.isArray(body.messages) ? body.messages : []) {
    if (!isRecord(raw)) continue;
    const blocks = Array.isArray(raw.content) ? raw.content.filter(isRecord) : [];
    if (raw.role === 'assistant') {
      const toolCalls: ToolCall[] = blocks
        .filter((block) => block.type === 'tool_use')
        .map((block) => ({
          id: String(block.id ?? ''),
          name: String(block.name ?? ''),
          arguments: JSON.stringify(block.input ?? {}),
        }));
      const content =
        typeof raw.content === 'string'
          ? raw.content
          : textOf(blocks.filter((b) => b.type === 'text'));
      messages.push(assistantMessage(content, toolCalls));
      continue;
    }
    if (typeof raw.content === 'string') {
      messages.push({ role: 'user', content: raw.content });
      continue;
    }
    let text = '';
    for (const block of blocks) {
      if (block.type === 'tool_result') {
        messages.push({
          role: 'tool',
          toolCallId: String(block.tool_use_id ?? ''),
          content: textOf(block.content),
        });
      } else if (typeof block.text === 'string') text += block.text;
    }
    if (text) messages.push({ role: 'user', content: text });
  }
  const tools: ToolSpec[] = [];
  for (const raw of Array.isArray(body.tools) ? body.tools.filter(isRecord) : []) {
    tools.push(toolSpec(raw.name, raw.description, raw.input_schema));
  }
  return { messages, tools };
}

const STOP: Record<PlannedReply['finishReason'], string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
};

function usage(plan: PlannedReply, outputTokens: number) {
  const cached = plan.usage.cachedInputTokens;
  return {
    input_tokens: Math.max(0, plan.usage.inputTokens - cached),
    output_tokens: outputTokens,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
  };
}

function toolInput(call: ToolCall): unknown {
  const parsed = safeParseJson(call.arguments);
  return parsed.ok ? parsed.value : {};
}

export function anthropicMessage(plan: PlannedReply, id: string): string {
  const content: unknown[] = [];
  if (plan.reasoning)
    content.push({ type: 'thinking', thinking: plan.reasoning, signature: 'mock' });
  if (plan.content) content.push({ type: 'text', text: plan.content });
  for (const call of plan.toolCalls) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call) });
  }
  return JSON.stringify({
    id,
    type: 'message',
    role: 'assistant',
    model: plan.model,
    content,
    stop_reason: STOP[plan.finishReason],
    stop_sequence: null,
    usage: usage(plan, plan.usage.outputTokens),
  });
}

/** The SSE events of a streamed reply, each a complete `event: ...\ndata: ...\n\n` frame. */
export function anthropicEvents(plan: PlannedReply, id: string): string[] {
  const frame = (data: Record<string, unknown>) =>
    `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
  const frames = [
    frame({
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: plan.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usage(plan, 1),
      },
    }),
  ];
  let index = 0;
  const block = (start: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
    frames.push(frame({ type: 'content_block_start', index, content_block: start }));
    for (const delta of deltas) frames.push(frame({ type: 'content_block_delta', index, delta }));
    frames.push(frame({ type: 'content_block_stop', index }));
    index++;
  };
  if (plan.reasoning) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...pieces(plan.reasoning, plan.chunkChars).map((thinking) => ({
        type: 'thinking_delta',
        thinking,
      })),
      { type: 'signature_delta', signature: 'mock' },
    ]);
  }
  if (plan.content) {
    block(
      { type: 'text', text: '' },
      pieces(plan.content, plan.chunkChars).map((text) => ({ type: 'text_delta', text })),
    );
  }
  for (const call of plan.toolCalls) {
    block(
      { type: 'tool_use', id: call.id, name: call.name, input: {} },
      pieces(JSON.stringify(toolInput(call)), plan.chunkChars).map((partial_json) => ({
        type: 'input_json_delta',
        partial_json,
      })),
    );
  }
  frames.push(
    frame({
      type: 'message_delta',
      delta: { stop_reason: STOP[plan.finishReason], stop_sequence: null },
      usage: { output_tokens: plan.usage.outputTokens },
    }),
  );
  frames.push(frame({ type: 'message_stop' }));
  return frames;
}

export function anthropicError(status: number, message: string): string {
  const type =
    status === 429
      ? 'rate_limit_error'
      : status === 401
        ? 'authentication_error'
        : status >= 500
          ? 'api_error'
          : 'invalid_request_error';
  return JSON.stringify({ type: 'error', error: { type, message } });
}
