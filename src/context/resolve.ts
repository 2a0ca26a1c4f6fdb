/**
 * Turns the `context` option into a ContextSource the sandbox loads itself:
 * a path becomes a file or directory source; `-` spools standard input to a
 * temporary file (streamed, never held in memory).
 */
import { createWriteStream } from 'node:fs';
import { access, constants, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ConfigError } from '../errors.js';
import type { ContextSource } from '../sandbox/sandbox.js';
import { fsReason } from '../util/fs-reason.js';

export interface ResolvedContext {
  source: ContextSource;
  /** Removes any temporary file made for it. */
  cleanup(): Promise<void>;
}

/** Resolves a path, `-` (standard input) or a ContextSource. */
export async function resolveContext(
  context: string | ContextSource,
  stdin: Readable = process.stdin,
): Promise<ResolvedContext> {
  const none = async () => {};
  if (typeof context !== 'string') return { source: context, cleanup: none };
  if (context === '-') {
    if ((stdin as { isTTY?: boolean }).isTTY === true) {
      throw new ConfigError(
        '--context - reads the context from standard input, but standard input is a terminal, not a pipe. Pipe the text in (cat notes.txt | reclamo run --context - ...) or pass a file or folder path.',
      );
    }
    const dir = await mkdtemp(join(tmpdir(), 'reclamo-stdin-'));
    const path = join(dir, 'context.txt');
    await pipeline(stdin, createWriteStream(path));
    return {
      source: { kind: 'file', path },
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const path = resolve(context);
  const info = await stat(path).catch(() => null);
  if (!info) {
    throw new ConfigError(
      `The context "${context}" does not exist. Pass a text file, a folder, or - to read standard input.`,
      context,
    );
  }
  if (!info.isDirectory() && !info.isFile()) {
    throw new ConfigError(`The context "${context}" is not a regular file or a folder.`, context);
  }
  const kind = info.isDirectory() ? 'directory' : 'file';
  // A folder must be listable and enterable; a file readable.
  const mode = kind === 'directory' ? constants.R_OK | constants.X_OK : constants.R_OK;
  const denied = await access(path, mode).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (denied !== undefined) {
    throw new ConfigError(
      `The context ${kind === 'directory' ? 'folder' : 'file'} "${context}" cannot be read: ${fsReason(denied)}. Fix its permissions (chmod u+r${kind === 'directory' ? 'x' : ''}) or pass another path.`,
      context,
    );
  }
  return { source: { kind, path } as ContextSource, cleanup: none };
}
