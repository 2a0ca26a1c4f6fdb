/**
 * Reads the objects of a large JSON file one at a time: a top-level array of
 * objects (`[{...}, {...}]`) or JSON lines. Only one object's text is held at
 * once, so a file of several hundred megabytes never becomes one string.
 */
import { createReadStream } from 'node:fs';
import { safeParseJson } from './safe-json.js';

/** One object of the file, parsed, or why it could not be. */
export type JsonObjectEntry =
  | { index: number; ok: true; value: unknown }
  | { index: number; ok: false; error: string };

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const QUOTE = 34;
const BACKSLASH = 92;

/** Yields every top-level object of the file, in order (0-based `index`); `chunkBytes` is the read size. */
export async function* readJsonObjects(
  path: string,
  chunkBytes = 1 << 20,
): AsyncGenerator<JsonObjectEntry> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: chunkBytes });
  let depth = 0;
  let inString = false;
  let escaped = false;
  let pieces: string[] = [];
  let index = 0;
  for await (const chunk of stream as AsyncIterable<string>) {
    let start = depth > 0 ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (depth === 0) {
        if (c === OPEN_BRACE) {
          depth = 1;
          start = i;
        } else if (c === OPEN_BRACKET || c === CLOSE_BRACKET || c === 44 || c <= 32) {
          // The array's own brackets, commas between objects, and whitespace.
        } else {
          yield { index: index++, ok: false, error: `unexpected "${chunk[i]}" between objects` };
          stream.destroy();
          return;
        }
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
        continue;
      }
      if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          pieces.push(chunk.slice(start, i + 1));
          const text = pieces.join('');
          pieces = [];
          start = -1;
          const parsed = safeParseJson(text);
          yield parsed.ok
            ? { index: index++, ok: true, value: parsed.value }
            : { index: index++, ok: false, error: parsed.error };
        }
      }
    }
    if (depth > 0 && start >= 0) pieces.push(chunk.slice(start));
  }
  if (depth > 0) yield { index, ok: false, error: 'the file ends inside an object (cut short?)' };
}
