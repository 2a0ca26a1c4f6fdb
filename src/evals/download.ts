/**
 * Downloading a dataset file from any HTTP(S) URL: resumable (a `.part` file
 * is continued with a Range request), checked against a SHA-256 before it
 * takes its final name, with progress reported as bytes arrive.
 */

import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ReclamoError } from '../errors.js';

/** The download failed; `partial` says whether a `.part` file was kept to resume from. */
export class DownloadError extends ReclamoError {
  override readonly name: string = 'DownloadError';
  constructor(
    message: string,
    readonly url: string,
    readonly partial: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface DownloadProgress {
  /** Bytes of the file on disk so far (a resumed part included). */
  bytes: number;
  /** The file's full size, when the server or the caller says. */
  total?: number;
  /** Bytes that were already on disk when this download started. */
  resumedFrom: number;
}

export interface DownloadOptions {
  url: string;
  /** Where the checked file ends up; `<dest>.part` while it downloads. */
  dest: string;
  /** Expected SHA-256 (hex) of the whole file. */
  sha256: string;
  /** Expected size, for progress when the server does not send one. */
  expectedBytes?: number;
  fetch?: typeof globalThis.fetch;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  sha256: string;
  /** Bytes a previous, interrupted download had left. */
  resumedFrom: number;
  /** The file was there already, with the right hash. */
  alreadyPresent: boolean;
}

/** Downloads `url` to `dest` unless a file with the right hash is there already. */
export async function downloadFile(options: DownloadOptions): Promise<DownloadResult> {
  const want = options.sha256.toLowerCase();
  const present = await sizeOf(options.dest);
  if (present !== undefined) {
    const got = await hashFile(options.dest);
    if (got === want) {
      return {
        path: options.dest,
        bytes: present,
        sha256: got,
        resumedFrom: 0,
        alreadyPresent: true,
      };
    }
    throw new DownloadError(
      `${options.dest} exists but its SHA-256 is ${got}, not ${want}. Fix: delete it to download it again, or give the SHA-256 of the file you have (--sha256).`,
      options.url,
      false,
    );
  }
  await mkdir(dirname(options.dest), { recursive: true });
  const part = `${options.dest}.part`;
  let outcome = await attempt(options, part);
  // A part that turned out to be complete, or a server that sent the whole file again.
  if (outcome === 'restart') outcome = await attempt(options, part, true);
  if (outcome === 'restart') {
    throw new DownloadError(
      `${options.url} answered a resumed download inconsistently twice`,
      options.url,
      true,
    );
  }
  const got = outcome.hash;
  if (got !== want) {
    await rm(part, { force: true });
    throw new DownloadError(
      `the file from ${options.url} has SHA-256 ${got}, not ${want}; it was deleted. Fix: check that --url points at the pinned revision of the file, or give a mirror's own hash with --sha256.`,
      options.url,
      false,
    );
  }
  await rename(part, options.dest);
  return {
    path: options.dest,
    bytes: outcome.bytes,
    sha256: got,
    resumedFrom: outcome.resumedFrom,
    alreadyPresent: false,
  };
}

type Attempt = { hash: string; bytes: number; resumedFrom: number } | 'restart';

async function attempt(options: DownloadOptions, part: string, fresh = false): Promise<Attempt> {
  if (fresh) await rm(part, { force: true });
  const have = (await sizeOf(part)) ?? 0;
  const headers: Record<string, string> = { 'user-agent': 'reclamo dataset download' };
  if (have > 0) headers.range = `bytes=${have}-`;
  let response: Response;
  try {
    response = await (options.fetch ?? globalThis.fetch)(options.url, {
      headers,
      redirect: 'follow',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    throw new DownloadError(
      `could not reach ${options.url}: ${reason(error)}. Fix: check the URL (--url) and the network${have > 0 ? '; the partial file is kept for the next try' : ''}.`,
      options.url,
      have > 0,
      { cause: error },
    );
  }
  if (response.status === 416 && have > 0) {
    await response.body?.cancel();
    // Nothing left to send: the part may be the whole file.
    return finishedPart(part, have, options);
  }
  if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel();
    throw new DownloadError(
      `${options.url} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}. Fix: check the URL (--url, or RECLAMO_LONGBENCH_PRO_URL for a mirror).`,
      options.url,
      have > 0,
    );
  }
  let from = 0;
  if (response.status === 206) {
    const start = /^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1];
    if (Number(start) !== have) {
      await response.body?.cancel();
      return 'restart';
    }
    from = have;
  }
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? from + length : options.expectedBytes;
  const hash = createHash('sha256');
  if (from > 0) await hashInto(part, hash);
  const out = createWriteStream(part, { flags: from > 0 ? 'a' : 'w' });
  let bytes = from;
  const report = () =>
    options.onProgress?.({ bytes, resumedFrom: from, ...(total !== undefined ? { total } : {}) });
  report();
  try {
    if (!response.body) throw new Error('the response has no body');
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      bytes += chunk.length;
      if (!out.write(chunk)) await once(out, 'drain');
      report();
    }
  } catch (error) {
    out.end();
    await once(out, 'close').catch(() => {});
    throw new DownloadError(
      `the download from ${options.url} stopped at ${bytes.toLocaleString('en-US')} bytes (${reason(error)}). Run the same command again to resume from there.`,
      options.url,
      true,
      { cause: error },
    );
  }
  out.end();
  await once(out, 'close');
  if (total !== undefined && Number.isFinite(length) && length > 0 && bytes !== total) {
    throw new DownloadError(
      `the connection to ${options.url} closed at ${bytes.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} bytes. Run the same command again to resume from there.`,
      options.url,
      true,
    );
  }
  return { hash: hash.digest('hex'), bytes, resumedFrom: from };
}

async function finishedPart(
  part: string,
  bytes: number,
  options: DownloadOptions,
): Promise<Attempt> {
  const hash = await hashFile(part);
  if (hash !== options.sha256.toLowerCase()) return 'restart';
  return { hash, bytes, resumedFrom: bytes };
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}

/** SHA-256 of a file, read as a stream. */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await hashInto(path, hash);
  return hash.digest('hex');
}

async function hashInto(path: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) hash.update(chunk);
}

function reason(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}
