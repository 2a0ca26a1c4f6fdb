/**
 * A context with no text in it (an empty file, empty standard input, a folder
 * whose files were all skipped or empty) is a mistake to report before any
 * model is called, not a question for the model to puzzle over.
 */
import { ConfigError } from '../errors.js';
import type { ContextShape, ContextSource } from '../sandbox/sandbox.js';

/**
 * Throws a ConfigError when a file or folder context loaded no text. `given`
 * is what the caller passed (a path, or `-` for standard input).
 */
export function requireText(source: ContextSource, shape: ContextShape, given: string): void {
  if (shape.totalChars > 0) return;
  if (source.kind === 'file') {
    throw new ConfigError(
      given === '-'
        ? 'Standard input was empty (--context -), so there is no context to ask about. Pipe the text in (cat notes.txt | reclamo run --context - ...) or pass a file or folder.'
        : `The context file "${given}" is empty. Pass a file with text in it, a folder, or - to read standard input.`,
      given === '-' ? undefined : given,
    );
  }
  if (source.kind !== 'directory') return;
  const s = shape.skipped;
  const skipped = s
    ? `skipped ${s.hidden} hidden (name starts with "."), ${s.notUtf8} not UTF-8 text, ${s.unreadable ?? 0} unreadable`
    : 'skipped none';
  const files = shape.partLengths.length;
  const loaded =
    files === 0 ? 'no files loaded' : `${files} file${files === 1 ? '' : 's'} loaded, all empty`;
  throw new ConfigError(
    `The context folder "${given}" holds no text to load (${loaded}; ${skipped}). Pass a folder that holds UTF-8 text files (hidden ones are always skipped), or a single file.`,
    given,
  );
}
