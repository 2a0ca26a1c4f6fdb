import { arr, display, isObj, str } from './coerce.js';

/** Text of a message's content: a string, or a list of parts with `text`. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (isObj(part) ? str(part.text) : display(part))).join('');
  }
  return display(content);
}

/** A prompt as text: a string as is, a message list as `role: content` paragraphs. */
export function promptText(prompt: unknown): string {
  if (typeof prompt === 'string') return prompt;
  if (Array.isArray(prompt)) {
    return prompt
      .map((m) => (isObj(m) ? `${str(m.role, 'message')}: ${contentText(m.content)}` : display(m)))
      .join('\n\n');
  }
  return display(prompt);
}

/** The content of the first (or last) message with `role`, when the prompt is a message list. */
export function messageOf(prompt: unknown, role: string, which: 'first' | 'last'): string | null {
  const messages = arr(prompt).filter((m) => isObj(m) && m.role === role);
  const message = which === 'first' ? messages[0] : messages[messages.length - 1];
  return isObj(message) ? contentText(message.content) : null;
}
