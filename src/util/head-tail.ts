/**
 * The one head-and-tail cutter. Every place that shortens a text by keeping
 * its start and end (a block's output shown to the model, a compacted
 * output, a bounded summary input, an observation or trace field) cuts
 * through here, and a record that says whether something was cut reads
 * `cut`, never the marker text.
 */

/** A text after cutting, and how many of its characters were left out. */
export interface HeadTail {
  text: string;
  /** Characters of the original the text no longer holds (0 when nothing was cut). */
  cut: number;
}

/**
 * Keeps `keep` characters of `text` (the head gets the odd one) around a
 * marker; `marker` may depend on how much was cut. Always cuts: the caller
 * decides when a text is long enough to need it.
 */
export function keepHeadAndTail(
  text: string,
  keep: number,
  marker: string | ((cut: number) => string),
): HeadTail {
  const kept = Math.max(0, Math.min(keep, text.length));
  const head = Math.ceil(kept / 2);
  const tail = kept - head;
  const cut = text.length - kept;
  const note = typeof marker === 'string' ? marker : marker(cut);
  return {
    text: text.slice(0, head) + note + (tail > 0 ? text.slice(text.length - tail) : ''),
    cut,
  };
}

/** The text unchanged, nothing cut. */
export function uncut(text: string): HeadTail {
  return { text, cut: 0 };
}

/** A text over `maxChars` keeps that many characters, head and tail, around a marker naming the cut. */
export function headTail(text: string, maxChars: number): HeadTail {
  if (text.length <= maxChars) return uncut(text);
  return keepHeadAndTail(text, maxChars, (cut) => `\n[... ${cut} characters cut ...]\n`);
}
