import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { safeParseJson } from '../util/safe-json.js';
import { isObj, type Obj } from './coerce.js';
import { ViewerError } from './errors.js';
import { type LineIndex, readFirstLine, readLines, scanLines } from './line-index.js';
import { buildDetail } from './normalise.js';
import { newestFirst, type RunSummary, summarise } from './run-summary.js';
import { TrajectoryScanner } from './scanner.js';
import type { RunHeader, TurnView } from './view-model.js';

/** Most timeline rows one details request may ask for. */
export const MAX_DETAIL_ROWS = 200;
const CACHE_ENTRIES = 32;

interface Scan {
  modifiedMs: number;
  bytes: number;
  header: RunHeader;
  rowLines: number[][];
  index: LineIndex;
}

/** What the run list shows for a directory. */
export interface RunList {
  dir: string;
  runs: RunSummary[];
  /** `.jsonl` files that are not listed, and why. */
  skipped: { file: string; reason: string }[];
}

/** True for a bare `.jsonl` file name: no directories, nothing hidden. */
export function isRunFileName(name: string): boolean {
  return (
    name.endsWith('.jsonl') &&
    !name.startsWith('.') &&
    !name.includes('/') &&
    !name.includes('\\') &&
    !name.includes('\0')
  );
}

/**
 * The trajectories of one directory. A file is scanned once per change (its
 * header and the position of each line are kept, never its text), and turn
 * details are read back from the lines that hold them.
 */
export class RunStore {
  private readonly scans = new Map<string, Promise<Scan>>();

  constructor(readonly dir: string) {}

  async list(): Promise<RunList> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter(isRunFileName).sort();
    } catch (error) {
      throw new ViewerError(
        `cannot read the runs directory ${this.dir}: ${(error as Error).message}. Pass the directory that holds the .jsonl trajectories (default runs/).`,
        404,
      );
    }
    const runs: RunSummary[] = [];
    const skipped: RunList['skipped'] = [];
    for (const file of names) {
      if (file.endsWith('.sft.jsonl')) {
        skipped.push({ file, reason: 'SFT log' });
        continue;
      }
      const first = safeParseJson(await readFirstLine(join(this.dir, file)));
      if (first.ok && isObj(first.value) && isObj(first.value.parent)) continue;
      const scan = await this.scan(file);
      if (scan.header.timeline.length === 0 && scan.header.question.chars === 0) {
        skipped.push({ file, reason: 'not a trajectory' });
        continue;
      }
      runs.push(summarise(file, scan.header, scan));
    }
    runs.sort(newestFirst);
    return { dir: this.dir, runs, skipped };
  }

  async header(file: string): Promise<RunHeader> {
    return (await this.scan(file)).header;
  }

  /** Details of timeline rows `from` (inclusive) to `to` (exclusive); null for non-turn rows. */
  async details(file: string, from: number, to: number): Promise<(TurnView | null)[]> {
    const scan = await this.scan(file);
    const end = Math.min(to, scan.header.timeline.length, from + MAX_DETAIL_ROWS);
    const wanted: number[] = [];
    for (let row = from; row < end; row++) {
      if (scan.header.timeline[row]?.kind === 'turn') wanted.push(...(scan.rowLines[row] ?? []));
    }
    const texts = await readLines(join(this.dir, file), scan.index, wanted);
    const out: (TurnView | null)[] = [];
    for (let row = Math.max(0, from); row < end; row++) {
      const records: Obj[] = [];
      for (const line of scan.rowLines[row] ?? []) {
        const parsed = safeParseJson(texts.get(line) ?? '');
        if (parsed.ok && isObj(parsed.value)) records.push(parsed.value);
      }
      out.push(buildDetail(scan.header, row, records));
    }
    return out;
  }

  private async scan(file: string): Promise<Scan> {
    if (!isRunFileName(file)) {
      throw new ViewerError(
        `not a trajectory file name: ${JSON.stringify(file)} (expected NAME.jsonl)`,
      );
    }
    const path = join(this.dir, file);
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(path);
    } catch {
      throw new ViewerError(`no trajectory ${file} in ${this.dir}`, 404);
    }
    const cached = this.scans.get(file);
    if (cached) {
      const scan = await cached.catch(() => undefined);
      if (scan && scan.modifiedMs === info.mtimeMs && scan.bytes === info.size) {
        this.scans.delete(file);
        this.scans.set(file, cached);
        return scan;
      }
    }
    const pending = (async (): Promise<Scan> => {
      const scanner = new TrajectoryScanner();
      const index = await scanLines(path, (text, line) => {
        scanner.push(text, line);
      });
      const header = scanner.finish();
      return {
        modifiedMs: info.mtimeMs,
        bytes: info.size,
        header,
        rowLines: scanner.rowLines,
        index,
      };
    })();
    this.scans.set(file, pending);
    pending.catch(() => this.scans.delete(file));
    while (this.scans.size > CACHE_ENTRIES) {
      const oldest = this.scans.keys().next().value;
      if (oldest === undefined) break;
      this.scans.delete(oldest);
    }
    return pending;
  }
}
