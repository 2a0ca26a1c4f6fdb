/**
 * Message bookkeeping for the tools protocol. The history is append-only:
 * each turn adds the assistant message with its tool calls, one tool message
 * per call in call order, then one user message carrying any notes and the
 * next turn line. Only compaction rewrites old tool outputs.
 */
import type { Message, ToolCall } from '../lm/model.js';

/** One turn's reply and what came of it. */
export interface ToolTurnInput {
  /** The reply's visible text (reasoning is never fed back). */
  content: string;
  /** The reply's tool calls, in the order the model made them. */
  toolCalls: readonly ToolCall[];
  /** What each call returned (REPL output, a rejection reason, ...), index-aligned with `toolCalls`. */
  toolResults: readonly string[];
  /** Notes for the model: nudges, warnings, a slipped reply's outputs. Joined by blank lines. */
  notes: readonly string[];
  /** The next turn line, e.g. `Turn 3/30`. Always last. */
  turnLine: string;
}

/** Join notes and the turn line into the closing user message's text. */
export function closingUserText(notes: readonly string[], turnLine: string): string {
  return [...notes.filter((n) => n.trim() !== ''), turnLine].join('\n\n');
}

/** The messages one tools-protocol turn appends to the history. */
export function toolTurnMessages(input: ToolTurnInput): Message[] {
  if (input.toolResults.length !== input.toolCalls.length) {
    throw new Error(
      `toolTurnMessages: ${input.toolCalls.length} tool calls but ${input.toolResults.length} results`,
    );
  }
  const messages: Message[] = [];
  messages.push(
    input.toolCalls.length > 0
      ? { role: 'assistant', content: input.content, toolCalls: [...input.toolCalls] }
      : { role: 'assistant', content: input.content },
  );
  input.toolCalls.forEach((call, i) => {
    messages.push({ role: 'tool', toolCallId: call.id, content: input.toolResults[i] ?? '' });
  });
  messages.push({ role: 'user', content: closingUserText(input.notes, input.turnLine) });
  return messages;
}

/**
 * Give every call a non-empty id unique within the reply, so each tool
 * message can be matched to its call. Some local servers send empty or
 * repeated ids; those get `call_<turn>_<index>`.
 */
export function normalizeToolCallIds(calls: readonly ToolCall[], turn: number): ToolCall[] {
  const seen = new Set<string>();
  return calls.map((call, i) => {
    let id = call.id;
    if (id === '' || seen.has(id)) id = `call_${turn}_${i}`;
    seen.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
