/**
 * rlm_query data: the worker writes it to a file in its own exchange folder
 * and names the file. The name comes from model code, so it is input from an
 * adversary: the host takes only a file name of the worker's own pattern,
 * opens it without following a link (and without blocking on a FIFO), and
 * checks on the open descriptor that it is a regular file the worker wrote,
 * with no other links, inside the folder, under the size cap. The host never
 * opens any other path the worker names.
 */
import { constants } from 'node:fs';
import { type FileHandle, open, readlink, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxError } from '../../errors.js';
import type { ContextSource, RlmQueryData } from '../sandbox.js';

/** The names the worker gives its exchange files: `q<n>.txt` (a str) or `q<n>.json`. */
const NAME = /^q[1-9][0-9]{0,8}\.(txt|json)$/;

/** Where the data may be, and what it must be. */
export interface ExchangeRules {
  /** The worker's exchange folder (its real path, made by the host). */
  dir: string;
  /** A folder only the host can write, for data handed on to a child. */
  hostDir: string;
  /** The uid the worker's files belong to. */
  uid: number;
  /** Largest data accepted, in bytes. */
  maxBytes: number;
}

/** rlm_query data checked and held open; `release()` closes and removes it. */
export interface OpenExchange extends RlmQueryData {
  release(): Promise<void>;
}

/** Refusal the model sees as the HostCallError of its rlm_query. */
function refuse(why: string): SandboxError {
  return new SandboxError(
    `rlm_query refused its data: ${why}. rlm_query only takes the file it wrote itself; call rlm_query(question, data) with the data as a str or a dict of str.`,
  );
}

/** Opens and checks the exchange file `name` of type `type`; throws the refusal otherwise. */
export async function openExchange(
  rules: ExchangeRules,
  name: string,
  type: 'str' | 'dict',
): Promise<OpenExchange> {
  if (!NAME.test(name)) {
    throw refuse(`${JSON.stringify(name.slice(0, 100))} is not a file name of the exchange folder`);
  }
  const path = join(rules.dir, name);
  let handle: FileHandle;
  try {
    handle = await open(
      path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY,
    );
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw refuse(
      code === 'ELOOP'
        ? `${name} is a symbolic link`
        : `${name} cannot be opened (${code ?? 'error'})`,
    );
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw refuse(`${name} is ${kindOf(info)}, not a regular file`);
    if (info.nlink !== 1) throw refuse(`${name} has ${info.nlink} hard links`);
    if (info.uid !== rules.uid) throw refuse(`${name} was not written by the REPL`);
    if (info.size > rules.maxBytes) {
      throw refuse(`${name} holds ${info.size} bytes, over the ${rules.maxBytes}-byte cap`);
    }
    // The descriptor itself must lead into the folder (nothing on the way was swapped).
    const real = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => path);
    if (real !== path) throw refuse(`${name} does not lie in the exchange folder`);
    return exchangeOf(rules, handle, name, type, info);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function exchangeOf(
  rules: ExchangeRules,
  handle: FileHandle,
  name: string,
  type: 'str' | 'dict',
  info: { size: number; dev: number; ino: number },
): OpenExchange {
  const bytes = info.size;
  let moved: string | undefined;
  return {
    type,
    bytes,
    async text(maxBytes: number): Promise<string> {
      if (bytes > maxBytes) {
        throw new SandboxError(
          `rlm_query data of ${bytes} bytes is over the ${maxBytes} bytes this call can take; pass less data`,
        );
      }
      const buffer = Buffer.alloc(bytes);
      let at = 0;
      while (at < bytes) {
        const { bytesRead } = await handle.read(buffer, at, bytes - at, at);
        if (bytesRead === 0) break;
        at += bytesRead;
      }
      return buffer.subarray(0, at).toString('utf8');
    },
    async context(): Promise<ContextSource> {
      if (!moved) {
        // Moved out of the worker's reach, then checked again: the same file, still a plain one.
        const target = join(rules.hostDir, name);
        await rename(join(rules.dir, name), target);
        moved = target;
        const again = await open(
          target,
          constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
        );
        try {
          const now = await again.stat();
          if (!now.isFile() || now.dev !== info.dev || now.ino !== info.ino) {
            throw refuse(`${name} was replaced while it was being read`);
          }
        } finally {
          await again.close();
        }
      }
      return { kind: 'file', path: moved, format: type === 'dict' ? 'json' : 'text' };
    },
    async release(): Promise<void> {
      await handle.close().catch(() => {});
      // Never a recursive removal where the worker can still reach: it could swap a
      // folder for a link mid-way. Anything else waits for the scratch folder's removal.
      await unlink(moved ?? join(rules.dir, name)).catch(() => {});
    },
  };
}

function kindOf(info: {
  isFIFO(): boolean;
  isDirectory(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isDirectory()) return 'a folder';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}
