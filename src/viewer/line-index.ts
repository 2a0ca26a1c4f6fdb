import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

/** Byte position of every line of a file (line n is at index n - 1). */
export interface LineIndex {
  starts: number[];
  lengths: number[];
}

/**
 * Streams a file once, calling `onLine` with each line's text and 1-based
 * number, and returns where each line sits so that chosen lines can be read
 * again later without loading the whole file.
 */
export async function scanLines(
  path: string,
  onLine: (text: string, line: number) => void,
): Promise<LineIndex> {
  const index: LineIndex = { starts: [], lengths: [] };
  let pending: Buffer[] = [];
  let pendingStart = 0;
  let position = 0;
  const emit = (buffer: Buffer, start: number) => {
    const end =
      buffer.length > 0 && buffer[buffer.length - 1] === 0x0d ? buffer.length - 1 : buffer.length;
    index.starts.push(start);
    index.lengths.push(buffer.length);
    onLine(buffer.toString('utf8', 0, end), index.starts.length);
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const data = chunk as Buffer;
    let from = 0;
    for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, from)) {
      const piece = data.subarray(from, nl);
      const line = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
      emit(line, pending.length > 0 ? pendingStart : position + from);
      pending = [];
      from = nl + 1;
    }
    if (from < data.length) {
      if (pending.length === 0) pendingStart = position + from;
      pending.push(data.subarray(from));
    }
    position += data.length;
  }
  if (pending.length > 0) emit(Buffer.concat(pending), pendingStart);
  return index;
}

/** Reads the given 1-based lines of a file, using positions from `scanLines`. */
export async function readLines(
  path: string,
  index: LineIndex,
  lines: number[],
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const handle = await open(path, 'r');
  try {
    for (const line of lines) {
      const start = index.starts[line - 1];
      const length = index.lengths[line - 1];
      if (start === undefined || length === undefined) continue;
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, start);
      out.set(line, buffer.toString('utf8').replace(/\r$/, ''));
    }
  } finally {
    await handle.close();
  }
  return out;
}

/** The first line of a file, read no further than `limit` bytes. */
export async function readFirstLine(path: string, limit = 1 << 20): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(limit);
    const { bytesRead } = await handle.read(buffer, 0, limit, 0);
    const text = buffer.subarray(0, bytesRead);
    const nl = text.indexOf(0x0a);
    return text.toString('utf8', 0, nl === -1 ? bytesRead : nl);
  } finally {
    await handle.close();
  }
}
