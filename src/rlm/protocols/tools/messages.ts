/**
 * Message bookkeeping for the tools protocol. The history is append-only:
 * each turn adds the assistant message with its tool calls, one tool message
 * per call in call order, then one user message carrying any notes and the
 * next turn line. Only compaction rewrites old tool outputs.
 */
import type { ToolCall } from '../../../lm/model.js';

/** Join notes and the turn line into the closing user message's text. */
export function closingUserText(notes: readonly string[], turnLine: string): string {
  return [...notes.filter((n) => n.trim() !== ''), turnLine].join('\n\n');
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
