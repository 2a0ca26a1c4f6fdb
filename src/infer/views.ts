/**
 * Context views: what a frame is given to read. Each view becomes a labelled
 * block with the SHA-256 of its content, read once when the frame starts and
 * fixed for the frame's lifetime.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fsReason } from '../util/fs-reason.js';
import { ViewError } from './errors.js';

/** Default largest view, in bytes (4 MiB). */
export const DEFAULT_MAX_VIEW_BYTES = 4 * 1024 * 1024;

/**
 * A view: a string (passed verbatim), a file to read when the frame starts
 * (`{ path }` or a `file:` URL), or a labelled literal `{ label, content }`.
 */
export type View =
  | string
  | URL
  | { path: string; label?: string }
  | { label: string; content: string };

/** A view as the frame sees it. */
export interface MaterializedView {
  label: string;
  content: string;
  /** UTF-8 bytes of the content. */
  bytes: number;
  /** Hex SHA-256 of the content's UTF-8 bytes. */
  sha256: string;
  /** Where it came from. */
  source: 'text' | 'file' | 'literal';
  /** The file read, for a file view. */
  path?: string;
}

/** What a trace records of a view: never its content twice. */
export type ViewRecord = Omit<MaterializedView, 'content'>;

function digest(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

function tooLarge(label: string, bytes: number, limit: number): ViewError {
  return new ViewError(
    `View "${label}" is ${bytes} bytes, over the limit of ${limit} bytes. Pass a smaller view (a slice of the file), or raise maxViewBytes.`,
  );
}

function fromText(
  label: string,
  content: string,
  source: MaterializedView['source'],
  limit: number,
): MaterializedView {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > limit) throw tooLarge(label, bytes, limit);
  return { label, content, bytes, sha256: digest(content), source };
}

/** Reads at most `limit + 1` bytes, so an oversized file is refused without loading it whole. */
async function readBounded(path: string, label: string, limit: number): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new ViewError(
      `View "${label}": cannot read ${path}: ${fsReason(error)}. Pass a file that exists and that you can read.`,
      path,
    );
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) {
      throw new ViewError(`View "${label}": ${path} is a folder. Pass a file.`, path);
    }
    if (info.size > limit) throw tooLarge(label, info.size, limit);
    const buffer = Buffer.alloc(limit + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    // A file that grew after stat (or a pipe that reports no size) is still bounded here.
    if (filled > limit) throw tooLarge(label, filled, limit);
    return buffer.subarray(0, filled).toString('utf8');
  } catch (error) {
    if (error instanceof ViewError) throw error;
    throw new ViewError(`View "${label}": cannot read ${path}: ${fsReason(error)}.`, path);
  } finally {
    await handle.close();
  }
}

/** Reads every view (files at call time) and checks each against `maxBytes`. */
export async function materializeViews(
  views: readonly View[],
  maxBytes: number = DEFAULT_MAX_VIEW_BYTES,
): Promise<MaterializedView[]> {
  const out: MaterializedView[] = [];
  for (const [index, view] of views.entries()) {
    out.push(await materializeView(view, index, maxBytes));
  }
  return out;
}

async function materializeView(
  view: View,
  index: number,
  limit: number,
): Promise<MaterializedView> {
  const fallback = `view ${index + 1}`;
  if (typeof view === 'string') return fromText(fallback, view, 'text', limit);
  if (view instanceof URL) {
    if (view.protocol !== 'file:') {
      throw new ViewError(
        `View ${index + 1} is a ${view.protocol} URL; only file: URLs are read. Pass the content as a string or { label, content }.`,
      );
    }
    return fromFile(fileURLToPath(view), undefined, limit);
  }
  if (typeof view === 'object' && view !== null) {
    if ('content' in view && typeof view.content === 'string') {
      const label = typeof view.label === 'string' && view.label !== '' ? view.label : fallback;
      return fromText(label, view.content, 'literal', limit);
    }
    if ('path' in view && typeof view.path === 'string') {
      return fromFile(view.path, view.label, limit);
    }
  }
  throw new ViewError(
    `View ${index + 1} is not a view: pass a string, { path }, a file: URL, or { label, content }.`,
  );
}

async function fromFile(
  path: string,
  label: string | undefined,
  limit: number,
): Promise<MaterializedView> {
  const name = label ?? basename(path);
  const content = await readBounded(path, name, limit);
  return { ...fromText(name, content, 'file', limit), path };
}

/** The trace's record of a view. */
export function viewRecord(view: MaterializedView): ViewRecord {
  const { content: _content, ...record } = view;
  return record;
}
