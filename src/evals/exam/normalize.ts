/**
 * The text form two documents are compared in when deciding whether one is
 * an exam document in disguise: Unicode compatibility forms folded (NFKC),
 * case folded, every run of whitespace one space, no leading or trailing
 * space. Its SHA-256 is what an exam hash list holds.
 */
import { sha256Hex } from '../../util/sha256.js';

/** NFKC, full case folding and collapsed whitespace. */
export function normalizeForMatch(text: string): string {
  // Upper then lower case approximates full case folding (ß -> ss, ſ -> s), which
  // toLowerCase alone does not do.
  const folded = text.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
  return folded.split(/\s+/u).filter(Boolean).join(' ');
}

/** SHA-256 (hex) of the normalised text. */
export function matchHash(text: string): string {
  return sha256Hex(normalizeForMatch(text));
}
