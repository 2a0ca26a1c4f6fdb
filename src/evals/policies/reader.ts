/**
 * The scripted reader: what stands in for a model reading tickets. It labels
 * a ticket from the generator's answer key for exactly the text it was shown,
 * and gets a configurable share of labels wrong, deterministically.
 */
import { hash32 } from '../prng.js';
import { CATEGORIES, type Category, categoryOfText } from '../tasks/ticket-bank.js';

export interface ReaderOptions {
  /** Share of labels the reader gets wrong, 0 to 1 (default 0). */
  errorRate?: number;
  /** Varies which labels are wrong for the same error rate (default 0). */
  errorSeed?: number;
}

/** The instruction the scripted root puts above a batch of tickets; the reader looks for it. */
export const LABEL_INSTRUCTION =
  'Label each support ticket below with exactly one category: billing, shipping, account, defect or cancellation. ' +
  'Reply with one line per ticket in the form `<id>: <category>`, using the id in square brackets, and nothing else.';

/** A ticket line as the scripted root sends it: `[<id>] <text>`. */
const TICKET_LINE = /^\[([^\]\s]+)\]\s*(.*)$/;

/** Label one ticket: the true category of its text, wrong at the configured rate. */
export function readLabel(id: string, text: string, options: ReaderOptions = {}): Category {
  const h = hash32(`${options.errorSeed ?? 0}|${id}|${text}`);
  const truth = categoryOfText(text) ?? (CATEGORIES[h % CATEGORIES.length] as Category);
  const rate = options.errorRate ?? 0;
  if (rate > 0 && (h >>> 8) / 16777216 < rate) {
    const index = CATEGORIES.indexOf(truth);
    return CATEGORIES[(index + 1 + (h % (CATEGORIES.length - 1))) % CATEGORIES.length] as Category;
  }
  return truth;
}

/** Label every `[id] text` line of a prompt; returns the reply lines, in order. */
export function labelTicketLines(prompt: string, options: ReaderOptions = {}): string[] {
  const out: string[] = [];
  for (const line of prompt.split('\n')) {
    const m = TICKET_LINE.exec(line.trim());
    if (m?.[1] && m[2] !== undefined) out.push(`${m[1]}: ${readLabel(m[1], m[2], options)}`);
  }
  return out;
}
