/**
 * The forced finish's last fallback before an empty answer: the prose of the
 * forced reply, read through the fence grammar, unless it is a plan or only
 * introduces code.
 */
import { parseReply, proseOf } from '../protocols/fence/grammar.js';
import { isPlanLike } from './judge.js';

/** A line of prose that only introduces code ("Let me run this:", "Here's the code:"). */
function introducesCode(text: string): boolean {
  const t = text.trim();
  return t.length < 200 && /:\s*$/.test(t);
}

/**
 * The (think-free) reply's prose with every code block and tool call
 * removed, or '' when what is left is a plan or only introduces code.
 */
export function proseAnswer(content: string): string {
  const parsed = parseReply(content);
  let prose = proseOf(content);
  // A FINAL that could not be used still carries the model's intended answer text.
  if (parsed.final?.kind === 'final') prose = parsed.final.answer;
  prose = prose.replace(/\n{3,}/g, '\n\n').trim();
  if (prose === '' || isPlanLike(prose) || introducesCode(prose)) return '';
  return prose;
}
