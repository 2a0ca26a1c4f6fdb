/** The texts compaction writes: stubs, the cut marker, the summary header. */
import { keepHeadAndTail } from '../../util/head-tail.js';

const n = (value: number) => value.toLocaleString('en-US');

/** Replaces a whole old output. */
export function elisionStub(
  chars: number,
  turn: number,
  block: number | undefined,
  variable: string,
): string {
  const where = block === undefined ? `turn ${turn}` : `turn ${turn}, block ${block}`;
  return `[REPL output of ${where} elided (${n(chars)} chars) to fit the context window; the full text is in the REPL variable \`${variable}\`.]`;
}

/** Keeps `keepChars` of `text` (head and tail halves) around a marker saying what was cut. */
export function cutMiddle(text: string, keepChars: number, variable: string): string {
  return keepHeadAndTail(
    text,
    keepChars,
    (cut) =>
      `\n[... ${n(cut)} of ${n(text.length)} chars cut here to fit the context window; the full output is in the REPL variable \`${variable}\` ...]\n`,
  ).text;
}

/** Heads the message that replaces summarised turns. */
export function summaryHeader(first: number, last: number, variable: string): string {
  const turns = first === last ? `turn ${first}` : `turns ${first}-${last}`;
  return `[Summary of ${turns}, which were removed to fit the context window; the full record is in the REPL variable \`${variable}\`.]\n`;
}

/** Bounds a text to `max` characters, head and tail kept. */
export function bound(text: string, max: number): string {
  if (text.length <= max) return text;
  // The marker counts toward `max`; it names the excess over `max`.
  const marker = `\n[... ${n(text.length - max)} chars omitted ...]\n`;
  return keepHeadAndTail(text, max - marker.length, marker).text;
}
