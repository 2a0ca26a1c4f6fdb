/**
 * The one home of `<think>` handling. Every LanguageModel separates reasoning
 * from content here, once, so `Completion.content` is think-free by contract
 * and nothing above the model layer strips tags again.
 */

/**
 * Splits `<think>...</think>` reasoning out of reply text. Handles several
 * blocks, a reply whose opening tag was in the prompt (only `</think>` comes
 * back, as Qwen3 chat templates do), and a block cut off by the length limit.
 */
export function splitThink(text: string): { content: string; reasoning: string } {
  const open = '<think>';
  const close = '</think>';
  if (!text.includes('think>')) return { content: text, reasoning: '' };
  const reasoning: string[] = [];
  let content = '';
  let rest = text;
  const firstClose = rest.indexOf(close);
  const firstOpen = rest.indexOf(open);
  if (firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen)) {
    reasoning.push(rest.slice(0, firstClose));
    rest = rest.slice(firstClose + close.length);
  }
  for (;;) {
    const start = rest.indexOf(open);
    if (start < 0) {
      content += rest;
      break;
    }
    content += rest.slice(0, start);
    const end = rest.indexOf(close, start + open.length);
    if (end < 0) {
      reasoning.push(rest.slice(start + open.length));
      break;
    }
    reasoning.push(rest.slice(start + open.length, end));
    rest = rest.slice(end + close.length);
  }
  return {
    content: content.replace(/^\s+/, ''),
    reasoning: reasoning
      .map((r) => r.trim())
      .filter(Boolean)
      .join('\n\n'),
  };
}

/**
 * A reply's content and reasoning as a Completion carries them: reasoning
 * that came apart (a field, thinking blocks) first, then any `<think>` text
 * split out of the content.
 */
export function separateReasoning(
  rawContent: string,
  separate: readonly string[] = [],
): { content: string; reasoning: string } {
  const { content, reasoning } = splitThink(rawContent);
  return {
    content,
    reasoning: [...separate.map((r) => r.trim()), reasoning].filter(Boolean).join('\n\n'),
  };
}
