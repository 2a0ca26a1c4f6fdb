/**
 * The plain baseline's prompt: one user message with the whole context and
 * the question, no REPL, no tools.
 */
import type { Message } from '../lm/model.js';

export const DOCUMENT_OPEN = '<document>';
export const DOCUMENT_CLOSE = '</document>';

/**
 * Messages for one plain call. The context comes first so servers can cache
 * its prefix. `note` (what was cut, for plain-truncated) follows the document.
 */
export function plainMessages(context: string, question: string, note?: string): Message[] {
  const after = note === undefined ? '' : `\n${note}`;
  return [
    {
      role: 'user',
      content: `Read the document below, then answer the question after it.\n\n${DOCUMENT_OPEN}\n${context}\n${DOCUMENT_CLOSE}${after}\n\n${question}\n\nAnswer directly: no code can be run.`,
    },
  ];
}

/** The note a cut document carries: how much of it the model sees. */
export function cutNote(kept: number, total: number): string {
  return `(The document was too long for this request: only its first ${kept.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} characters are shown above.)`;
}

/** The document part of a plain prompt, or undefined when the text is not one. */
export function documentOf(prompt: string): string | undefined {
  const start = prompt.indexOf(`${DOCUMENT_OPEN}\n`);
  const end = prompt.lastIndexOf(`\n${DOCUMENT_CLOSE}`);
  if (start < 0 || end < start) return undefined;
  return prompt.slice(start + DOCUMENT_OPEN.length + 1, end);
}
