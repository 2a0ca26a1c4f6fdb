import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ViewerError } from './errors.js';
import { normaliseText } from './normalise.js';
import { type ExportData, exportedPage } from './page.js';
import { isRunFileName } from './run-store.js';
import type { RunView, SubcallView } from './view-model.js';

export interface ExportOptions {
  /** Path of the trajectory to export; child trajectories are read from its directory. */
  run: string;
  /** Path of the HTML file to write. */
  output: string;
}

export interface ExportResult {
  output: string;
  bytes: number;
  /** Trajectories inlined: the run and its child RLMs. */
  runs: number;
  /** Child files the run names that could not be read. */
  missing: string[];
}

/** Writes one self-contained HTML page showing a run and its child RLMs. */
export async function exportRun(options: ExportOptions): Promise<ExportResult> {
  const dir = dirname(options.run);
  const root = basename(options.run);
  const data: ExportData = { mode: 'export', root, runs: {}, missing: [] };
  const queue = [root];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (file in data.runs || data.missing.includes(file)) continue;
    let text: string;
    try {
      text = await readFile(join(dir, file), 'utf8');
    } catch (error) {
      if (file === root) {
        throw new ViewerError(
          `cannot read ${options.run}: ${(error as Error).message}. Pass a trajectory file (runs/<stamp>-<id>.jsonl).`,
          404,
        );
      }
      data.missing.push(file);
      continue;
    }
    const run = normaliseText(text);
    data.runs[file] = run;
    queue.push(...childFiles(run).filter(isRunFileName));
  }
  const html = await exportedPage(data);
  // The page holds the trajectory's text: private to its owner, like the trajectory.
  await writeFile(options.output, html, { mode: 0o600 });
  return {
    output: options.output,
    bytes: Buffer.byteLength(html),
    runs: Object.keys(data.runs).length,
    missing: data.missing,
  };
}

function childFiles(run: RunView): string[] {
  const files: string[] = [];
  const visit = (sub: SubcallView) => {
    if (sub.child && 'file' in sub.child) files.push(sub.child.file);
  };
  for (const detail of run.details) {
    if (!detail) continue;
    detail.looseSubcalls.forEach(visit);
    for (const block of detail.blocks) block.subcalls.forEach(visit);
  }
  return files;
}
