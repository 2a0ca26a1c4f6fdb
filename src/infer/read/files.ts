/**
 * The read frame's file tools: read a piece of a file (or list a folder) and
 * search files with a regular expression. Both stay under the frame's roots
 * and bound what they read and return.
 */
import type { Dirent } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { confinePath, PathRefused, shownPath } from './confine.js';

/** Most bytes one read_file call returns. */
export const MAX_READ_BYTES = 20_000;
/** Most entries a folder listing shows. */
export const MAX_LISTED = 200;
/** Search limits: files visited, bytes per file, matches returned, characters per line, time. */
export const SEARCH_LIMITS = {
  files: 5_000,
  fileBytes: 4 * 1024 * 1024,
  matches: 100,
  lineChars: 300,
  timeoutMs: 5_000,
  patternChars: 1_000,
};

function whole(value: unknown, fallback: number, name: string): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new PathRefused(`${name} must be a whole number >= 0`);
  }
  return value;
}

/** `read_file({ path, offset?, length? })`: bytes of a file, or a folder's entries. */
export async function readFileTool(
  args: Record<string, unknown>,
  roots: readonly string[],
): Promise<string> {
  const real = await confinePath(args.path, roots);
  const shown = shownPath(real, roots);
  const info = await stat(real);
  if (info.isDirectory()) return listFolder(real, shown);
  const offset = whole(args.offset, 0, 'offset');
  const length = Math.min(whole(args.length, MAX_READ_BYTES, 'length'), MAX_READ_BYTES);
  const handle = await open(real, 'r');
  try {
    const buffer = Buffer.alloc(Math.max(0, Math.min(length, info.size - offset)));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(
        buffer,
        filled,
        buffer.length - filled,
        offset + filled,
      );
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const end = offset + filled;
    const more = end < info.size ? ` (more follows: read again with offset ${end})` : '';
    return `${shown}: ${info.size} bytes; bytes ${offset}-${end}${more}\n${buffer.subarray(0, filled).toString('utf8')}`;
  } finally {
    await handle.close();
  }
}

async function listFolder(real: string, shown: string): Promise<string> {
  const entries = (await readdir(real, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  );
  const lines = entries.slice(0, MAX_LISTED).map((e) => `${e.name}${e.isDirectory() ? '/' : ''}`);
  const more =
    entries.length > MAX_LISTED ? `\n(${entries.length - MAX_LISTED} more not shown)` : '';
  return `${shown}/ (folder, ${entries.length} entries)\n${lines.join('\n')}${more}`;
}

interface Found {
  path: string;
  shown: string;
}

/** Files under `dir`, skipping hidden entries and every symlink (no walk leaves the roots). */
async function listFiles(dir: string, roots: readonly string[], out: Found[]): Promise<void> {
  if (out.length >= SEARCH_LIMITS.files) return;
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    if (out.length >= SEARCH_LIMITS.files) return;
    if (entry.name.startsWith('.') || entry.isSymbolicLink()) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await listFiles(path, roots, out);
    else if (entry.isFile()) {
      const size = (await stat(path).catch(() => undefined))?.size ?? Number.POSITIVE_INFINITY;
      if (size <= SEARCH_LIMITS.fileBytes) out.push({ path, shown: shownPath(path, roots) });
    }
  }
}

interface SearchReply {
  matches: { file: string; line: number; text: string }[];
  error?: string;
}

/** Runs the regex in a worker thread, ended after the time limit (a runaway pattern cannot hang the host). */
function searchInWorker(pattern: string, flags: string, files: Found[]): Promise<SearchReply> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./search-worker.js', import.meta.url), {
      workerData: {
        pattern,
        flags,
        files,
        maxMatches: SEARCH_LIMITS.matches,
        maxLineChars: SEARCH_LIMITS.lineChars,
      },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(
        new PathRefused(
          `the search took longer than ${SEARCH_LIMITS.timeoutMs / 1000} s and was stopped; use a simpler pattern or a smaller folder`,
        ),
      );
    }, SEARCH_LIMITS.timeoutMs);
    worker.once('message', (reply: SearchReply) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(reply);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(new PathRefused(`the search failed: ${error.message}`));
    });
  });
}

/** `search_files({ pattern, path?, ignoreCase? })`: lines matching a regex, as `file:line: text`. */
export async function searchFilesTool(
  args: Record<string, unknown>,
  roots: readonly string[],
): Promise<string> {
  const pattern = args.pattern;
  if (
    typeof pattern !== 'string' ||
    pattern === '' ||
    pattern.length > SEARCH_LIMITS.patternChars
  ) {
    throw new PathRefused(
      `pattern must be a non-empty string of at most ${SEARCH_LIMITS.patternChars} characters`,
    );
  }
  const flags = args.ignoreCase === true ? 'i' : '';
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    throw new PathRefused(`pattern is not a valid regular expression: ${(error as Error).message}`);
  }
  const start = await confinePath(args.path ?? '.', roots);
  const files: Found[] = [];
  if ((await stat(start)).isDirectory()) await listFiles(start, roots, files);
  else files.push({ path: start, shown: shownPath(start, roots) });
  const reply = await searchInWorker(pattern, flags, files);
  if (reply.error) throw new PathRefused(`the search failed: ${reply.error}`);
  const lines = reply.matches.map((m) => `${m.file}:${m.line}: ${m.text}`);
  const capped =
    reply.matches.length >= SEARCH_LIMITS.matches
      ? ` (stopped at ${SEARCH_LIMITS.matches}; narrow the pattern or the path)`
      : '';
  const scanned =
    files.length >= SEARCH_LIMITS.files
      ? ` in the first ${SEARCH_LIMITS.files} files`
      : ` in ${files.length} files`;
  return `${lines.length} matches${scanned}${capped}\n${lines.join('\n')}`;
}
