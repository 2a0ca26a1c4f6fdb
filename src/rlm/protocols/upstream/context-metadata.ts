/**
 * The context-metadata message of the upstream layout: one sentence, sent as
 * an assistant message right after the system prompt.
 */
import type { ContextShape } from '../../../sandbox/sandbox.js';
import { pyListRepr } from './python-repr.js';

/** Upstream lists at most this many part lengths, then says how many it left out. */
const MAX_LISTED_PARTS = 100;

/** The part lengths as upstream prints them: a Python list, cut after 100 entries. */
export function formatPartLengths(lengths: readonly number[]): string {
  if (lengths.length <= MAX_LISTED_PARTS) return pyListRepr(lengths);
  const others = lengths.length - MAX_LISTED_PARTS;
  return `${pyListRepr(lengths.slice(0, MAX_LISTED_PARTS))}... [${others} others]`;
}

/** `Your context is a <type> with <N> total characters, and is broken up into chunks of char lengths: [...].` */
export function upstreamContextMetadata(shape: ContextShape): string {
  return (
    `Your context is a ${shape.type} with ${shape.totalChars} total characters, ` +
    `and is broken up into chunks of char lengths: ${formatPartLengths(shape.partLengths)}.`
  );
}
