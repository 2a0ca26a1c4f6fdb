/**
 * The bench's row file: a JSON document rewritten after every finished row
 * (write to a temporary file, then rename), so an interrupted bench leaves a
 * valid file that `--resume` continues from.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { isRecord, safeParseJson } from '../../util/safe-json.js';
import { EvalConfigError } from '../errors.js';
import type { BenchRow } from './row.js';

export const ROW_FILE_VERSION = 1;

export interface RowFile {
  version: number;
  /** What produced the rows (profile, grid), for the reader's benefit. */
  meta: Record<string, unknown>;
  rows: BenchRow[];
}

/** Read a row file; a missing file is an empty one, a malformed one is an error naming the file. */
export async function readRowFile(path: string): Promise<RowFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = safeParseJson(text);
  if (!parsed.ok || !isRecord(parsed.value) || !Array.isArray(parsed.value.rows)) {
    throw new EvalConfigError(
      `${path} is not a bench row file (expected a JSON object with a "rows" array). Fix: pass the file a bench run wrote, or a new path.`,
    );
  }
  const rows = parsed.value.rows.filter(
    (row): row is BenchRow =>
      isRecord(row) && typeof row.task === 'string' && typeof row.mode === 'string',
  );
  const meta = isRecord(parsed.value.meta) ? parsed.value.meta : {};
  return { version: Number(parsed.value.version) || ROW_FILE_VERSION, meta, rows };
}

/** Write the whole file atomically. */
export async function writeRowFile(path: string, file: RowFile): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, `${JSON.stringify(file, null, 2)}\n`);
  await rename(tmp, path);
}
