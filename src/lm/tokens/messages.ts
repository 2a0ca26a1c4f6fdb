/** Counting a whole request: messages with their framing, tool calls, and tool specs. */
import type { Message, ToolSpec } from '../model.js';
import type { TokenEstimator } from './estimator.js';

/** Tokens each message costs beyond its text (role and delimiters in chat templates). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens that open the assistant's reply. */
export const REPLY_PRIMING_TOKENS = 3;
/** Tokens each tool spec costs beyond its JSON (the template's tool section framing). */
export const TOOL_OVERHEAD_TOKENS = 10;

/** Estimated input tokens of a request: every message, its tool calls, and the tool specs. */
export function countRequest(
  messages: readonly Message[],
  estimator: TokenEstimator,
  tools: readonly ToolSpec[] = [],
): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const message of messages) total += countMessage(message, estimator);
  for (const tool of tools) total += TOOL_OVERHEAD_TOKENS + estimator.count(JSON.stringify(tool));
  return total;
}

/** Estimated tokens of one message including its framing and any tool calls. */
export function countMessage(message: Message, estimator: TokenEstimator): number {
  let total = MESSAGE_OVERHEAD_TOKENS + estimator.count(message.content);
  if (message.role === 'assistant' && message.toolCalls) {
    for (const call of message.toolCalls) {
      total +=
        MESSAGE_OVERHEAD_TOKENS + estimator.count(call.name) + estimator.count(call.arguments);
    }
  }
  if (message.role === 'tool') total += estimator.count(message.toolCallId);
  return total;
}
