/**
 * What a scripted root policy may look at: the conversation the harness sent.
 * It reads the question and the REPL outputs echoed back, and writes its
 * reply as fenced code and FINAL text, or as tool calls when the request
 * offers the tools protocol.
 */
import type { Message, ToolCall } from '../../lm/model.js';
import type { MockReply, MockRequest } from '../../testing/mock-policy.js';

/** What the scripted root does next. */
export type RootAction =
  | { kind: 'code'; code: string; note: string }
  | { kind: 'final'; answer: string; note: string }
  | { kind: 'final_var'; variable: string; note: string };

/** A view of one root request. */
export interface RootTurn {
  /** All text the harness wrote (system, user and tool messages), in order. */
  harnessText: string;
  /** Text after the model's last reply: the newest REPL output and notes. */
  observation: string;
  /** Every observation so far, oldest first (one per model reply). */
  observations: string[];
  /** Model replies so far in this conversation. */
  turn: number;
  /** The system prompt, or '' when there is none. */
  system: string;
  /** True when the request offers `execute_python` (tools protocol). */
  tools: boolean;
}

/** Marker prefix the scripted code prints; the code builds it, so it never appears in code text. */
export const MARK = '@@';
/** Python expression that evaluates to MARK without containing it. */
export const MARK_EXPR = '("@" + "@")';

function text(message: Message): string {
  return message.content;
}

export function readTurn(request: MockRequest): RootTurn {
  const messages = request.messages;
  // Segments of harness text: [0] before the first reply, [i] after reply i.
  const segments: string[][] = [[]];
  let seenUser = false;
  let preamble = false;
  for (const message of messages) {
    if (message.role === 'assistant') {
      // A first assistant message before any user message is the harness's own
      // preamble (the upstream layout puts the context metadata there), not a reply.
      if (!seenUser && !preamble) {
        preamble = true;
        segments[0]?.push(text(message));
      } else segments.push([]);
    } else if (message.role !== 'system') {
      seenUser = true;
      segments[segments.length - 1]?.push(text(message));
    }
  }
  const observations = segments.slice(1).map((lines) => lines.join('\n'));
  return {
    harnessText: messages
      .filter((m) => m.role !== 'assistant')
      .map(text)
      .join('\n'),
    observation: observations[observations.length - 1] ?? '',
    observations,
    turn: observations.length,
    system: messages.find((m) => m.role === 'system')?.content ?? '',
    tools: request.tools.some((t) => t.name === 'execute_python'),
  };
}

/** Lines of `text` that start with `MARK + tag`, without the marker and tag. */
export function markedLines(text: string, tag: string): string[] {
  const prefix = `${MARK}${tag} `;
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const at = raw.indexOf(prefix);
    if (at >= 0) out.push(raw.slice(at + prefix.length));
  }
  return out;
}

/** Render an action as the reply the harness expects. */
export function renderAction(action: RootAction, turn: RootTurn): MockReply {
  if (turn.tools) return { content: action.note, toolCalls: [toolCall(action, turn.turn)] };
  switch (action.kind) {
    case 'code':
      return { content: `${action.note}\n\n\`\`\`repl\n${action.code}\n\`\`\`` };
    case 'final':
      return { content: `${action.note}\n\nFINAL(${action.answer})` };
    case 'final_var':
      return { content: `${action.note}\n\nFINAL_VAR(${action.variable})` };
  }
}

function toolCall(action: RootAction, turn: number): ToolCall {
  const id = `call_${turn + 1}`;
  switch (action.kind) {
    case 'code':
      return { id, name: 'execute_python', arguments: JSON.stringify({ code: action.code }) };
    case 'final':
      return { id, name: 'final_answer', arguments: JSON.stringify({ answer: action.answer }) };
    case 'final_var':
      return { id, name: 'final_answer', arguments: JSON.stringify({ variable: action.variable }) };
  }
}

/** A Python string literal for arbitrary text. */
export function pyString(value: string): string {
  return JSON.stringify(value);
}
