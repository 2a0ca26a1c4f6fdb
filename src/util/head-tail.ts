/** Cutting long text to its head and tail, saying how much was left out. */

/** Text cut to at most about `maxChars`, and how many characters were left out. */
export interface HeadTail {
  text: string;
  /** Characters removed from the middle (0 when nothing was cut). */
  cut: number;
}

/** Keeps the first and last halves of `maxChars` around a marker naming the cut. */
export function headTail(text: string, maxChars: number): HeadTail {
  if (text.length <= maxChars) return { text, cut: 0 };
  const head = Math.ceil(maxChars / 2);
  const tail = Math.floor(maxChars / 2);
  const cut = text.length - head - tail;
  return {
    text: `${text.slice(0, head)}\n[... ${cut} characters cut ...]\n${text.slice(text.length - tail)}`,
    cut,
  };
}
