/** The mock server's OpenAI-compatible side: request normalisation and reply rendering. */
import type { Message, ToolSpec } from '../lm/model.js';
import { isRecord } from '../util/safe-json.js';
import { type PlannedReply, pieces } from './mock-reply.js';
import { assistantMessage, type Conversation, textOf, toolSpec } from './mock-request.js';

/** The messages and tools of a chat completions request body. */
export function openAIConversation(body: Record<string, unknown>): Conversation {
  const messages: Message[] = [];
  for (const raw of Array.isArray(body.messages) ? body.messages : []) {
    if (!isRecord(raw)) continue;
    const content = textOf(raw.content);
    if (raw.role === 'tool') {
      messages.push({ role: 'tool', toolCallId: String(raw.tool_call_id ?? ''), content });
    } else if (raw.role === 'assistant') {
      const calls = Array.isArray(raw.tool_calls) ? raw.tool_calls.filter(isRecord) : [];
      const toolCalls = calls.map((call) => {
        const fn = isRecord(call.function) ? call.function : {};
        return {
          id: String(call.id ?? ''),
          name: String(fn.name ?? ''),
          arguments: String(fn.arguments ?? ''),
        };
      });
      messages.push(assistantMessage(content, toolCalls));
    } else if (raw.role === 'system' || raw.role === 'developer') {
      messages.push({ role: 'system', content });
    } else {
      messages.push({ role: 'user', content });
    }
  }
  const tools: ToolSpec[] = [];
  for (const raw of Array.isArray(body.tools) ? body.tools : []) {
    const fn = isRecord(raw) && isRecord(raw.function) ? raw.function : undefined;
    if (!fn) continue;
    tools.push(toolSpec(fn.name, fn.description, fn.parameters));
  }
  return { messages, tools };
}

function wireUsage(plan: PlannedReply) {
  return {
    prompt_tokens: plan.usage.inputTokens,
    completion_tokens: plan.usage.outputTokens,
    total_tokens: plan.usage.inputTokens + plan.usage.outputTokens,
    prompt_tokens_details: { cached_tokens: plan.usage.cachedInputTokens },
  };
}

export function openAICompletion(plan: PlannedReply, id: string): string {
  const message: Record<string, unknown> = { role: 'assistant', content: plan.content };
  if (plan.reasoning) message[plan.reasoningField] = plan.reasoning;
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return JSON.stringify({
    id,
    object: 'chat.completion',
    created: 0,
    model: plan.model,
    choices: [{ index: 0, message, finish_reason: plan.finishReason }],
    usage: wireUsage(plan),
  });
}

/** The SSE events of a streamed reply, each a complete `data: ...\n\n` frame. */
export function openAIChunks(plan: PlannedReply, id: string, includeUsage: boolean): string[] {
  const frame = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created: 0,
      model: plan.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  const frames = [frame({ role: 'assistant', content: '' })];
  for (const piece of pieces(plan.reasoning, plan.chunkChars)) {
    frames.push(frame({ [plan.reasoningField]: piece }));
  }
  for (const piece of pieces(plan.content, plan.chunkChars)) frames.push(frame({ content: piece }));
  plan.toolCalls.forEach((call, index) => {
    frames.push(
      frame({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    );
    for (const piece of pieces(call.arguments, plan.chunkChars)) {
      frames.push(frame({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  frames.push(frame({}, plan.finishReason));
  if (includeUsage) {
    frames.push(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: plan.model, choices: [], usage: wireUsage(plan) })}\n\n`,
    );
  }
  frames.push('data: [DONE]\n\n');
  return frames;
}

export function openAIError(status: number, message: string): string {
  return JSON.stringify({
    error: { message, type: status === 429 ? 'rate_limit_error' : 'mock_error', code: status },
  });
}

export function modelList(models: readonly string[]): string {
  return JSON.stringify({
    object: 'list',
    data: models.map((id) => ({
      id,
      object: 'model',
      type: 'model',
      created: 0,
      created_at: '2026-01-01T00:00:00Z',
      owned_by: 'mock',
      display_name: id,
    })),
    has_more: false,
    first_id: models[0] ?? null,
    last_id: models[models.length - 1] ?? null,
  });
}
