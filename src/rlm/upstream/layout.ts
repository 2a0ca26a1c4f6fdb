/**
 * The upstream message layout: system prompt, the context metadata as an
 * assistant message, the stored history (each reply followed by one user
 * message per executed block), and last the per-turn prompt, which is never
 * stored.
 */
import type { Message } from '../../lm/model.js';
import { cutUpstreamResult, upstreamExecutionMessage } from './execution-result.js';

export interface UpstreamRequestInput {
  systemPrompt: string;
  /** The sentence from `upstreamContextMetadata`. */
  contextMetadata: string;
  /** Stored history: replies, block results and notes of earlier turns. */
  history: readonly Message[];
  /** This turn's prompt from `upstreamTurnPrompt`. */
  turnPrompt: string;
}

/** The messages of one root request. */
export function upstreamRequestMessages(input: UpstreamRequestInput): Message[] {
  return [
    { role: 'system', content: input.systemPrompt },
    { role: 'assistant', content: input.contextMetadata },
    ...input.history,
    { role: 'user', content: input.turnPrompt },
  ];
}

/** One block that ran: its stripped code and its formatted `<result>` (before the cut). */
export interface UpstreamExecutedBlock {
  code: string;
  result: string;
}

/**
 * What one turn adds to the stored history: the reply as written, one user
 * message per executed block (result cut at `limit`), and, when there are
 * any, our notes (nudges, a rejected final) as one more user message.
 */
export function upstreamTurnMessages(
  reply: string,
  blocks: readonly UpstreamExecutedBlock[],
  notes: readonly string[] = [],
  limit?: number,
): Message[] {
  const messages: Message[] = [{ role: 'assistant', content: reply }];
  for (const block of blocks) {
    messages.push({
      role: 'user',
      content: upstreamExecutionMessage(block.code, cutUpstreamResult(block.result, limit)),
    });
  }
  const text = notes.filter((n) => n.trim() !== '').join('\n\n');
  if (text !== '') messages.push({ role: 'user', content: text });
  return messages;
}
