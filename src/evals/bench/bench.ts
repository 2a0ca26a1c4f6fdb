/**
 * The bench: the harness (`rlm`) against plain calls, over a grid of tasks,
 * sizes and seeds. Each finished row is written to the row file at once, so
 * `resume` can skip what is done after an interruption.
 */
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ResolvedProfile } from '../../config/types.js';
import { createEndpointPool } from '../../lm/endpoints.js';
import type { LanguageModel } from '../../lm/model.js';
import type { RunOverrides } from '../../rlm/settings.js';
import { writeTaskContext } from '../context-file.js';
import { EvalConfigError } from '../errors.js';
import type { TaskGenerator, TaskInstance } from '../task.js';
import { type GridCell, gridCells } from './grid.js';
import { runPlainRow } from './plain-row.js';
import { type RlmRowRunner, runRlmRow } from './rlm-row.js';
import { type BenchMode, type BenchRow, rowKey } from './row.js';
import { type RowFile, readRowFile, writeRowFile } from './row-file.js';

export interface BenchOptions {
  /** The profile every row runs against (its root role also answers the plain calls). */
  profile: ResolvedProfile;
  /** Task generators, run over `sizes` and `seeds`; ignored when `cells` is given. */
  tasks?: TaskGenerator[];
  /** The cells to run, in order, instead of a task x size x seed grid (dataset items). */
  cells?: GridCell[];
  /** Sizes per task name; a task without an entry uses its default bench sizes. */
  sizes?: Record<string, number[]>;
  /** Seeds 0..seeds-1 (default 1). */
  seeds?: number;
  /** Modes per cell (default rlm and plain). */
  modes?: BenchMode[];
  /** The row file (JSON). */
  out: string;
  /** Continue an existing row file, skipping rows already there. Without it an existing file is an error. */
  resume?: boolean;
  /** Where rlm rows write trajectories (default `runs`). */
  logDir?: string;
  /** Run settings for rlm rows (prompt version, limits, ...). */
  overrides?: RunOverrides;
  /** Called after each row is written (the CLI prints progress here). */
  onRow?: (row: BenchRow, done: number, total: number) => void;
  /** Called before each row runs, with what it is (a live progress line shows it). */
  onRowStart?: (what: RowStart, done: number, total: number) => void;
  /** Copied onto every row (the frozen eval's harness version). */
  harness?: BenchRow['harness'];
  /** Extra facts for the row file's `meta`. */
  meta?: Record<string, unknown>;
  /** Stop after this many new rows (for tests of resume). */
  maxRows?: number;
  /** Run an rlm row; defaults to the real harness. */
  runRlm?: RlmRowRunner;
  /** Model for plain rows; defaults to one built from the profile's root role. */
  plainModel?: LanguageModel;
  /** Clock for `finishedAt`. */
  now?: () => Date;
}

/** The row about to run. */
export type RowStart = Pick<BenchRow, 'task' | 'size' | 'unit' | 'seed' | 'mode' | 'item'>;

export interface BenchResult {
  rows: BenchRow[];
  /** Rows run now (not skipped by resume). */
  ran: number;
  skipped: number;
}

export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const modes = options.modes ?? ['rlm', 'plain'];
  const cells =
    options.cells ?? gridCells(options.tasks ?? [], options.sizes ?? {}, options.seeds ?? 1);
  const existing = await readRowFile(options.out);
  if (existing && existing.rows.length > 0 && !options.resume) {
    throw new EvalConfigError(
      `${options.out} already holds ${existing.rows.length} rows. Fix: pass --resume to continue it, or choose another --out.`,
    );
  }
  const file: RowFile = existing ?? {
    version: 1,
    meta: {
      profile: options.profile.name,
      modes,
      ...(options.cells ? {} : { seeds: options.seeds ?? 1 }),
      ...options.meta,
    },
    rows: [],
  };
  await mkdir(dirname(options.out), { recursive: true });
  const done = new Set(file.rows.filter((r) => r.status !== 'error').map(rowKey));
  const total = cells.length * modes.length;
  let finished = file.rows.filter((r) => done.has(rowKey(r))).length;
  const work = join(tmpdir(), `reclamo-bench-${process.pid}-${Date.now()}`);
  const runRlm = options.runRlm ?? runRlmRow;
  let plainModel = options.plainModel;
  let ran = 0;
  let skipped = 0;
  try {
    for (const cell of cells) {
      const todo = modes.filter((mode) => !done.has(rowKey({ ...cell, mode })));
      skipped += modes.length - todo.length;
      if (todo.length === 0) continue;
      const instance = await cell.instance();
      for (const mode of todo) {
        if (options.maxRows !== undefined && ran >= options.maxRows)
          return { rows: file.rows, ran, skipped };
        const start: RowStart = { ...pickStart(cell), mode };
        options.onRowStart?.(start, finished, total);
        let outcome: Partial<BenchRow>;
        if (mode === 'rlm') {
          outcome = await rlmRow(instance, cell, work, options, runRlm);
        } else {
          plainModel ??= createEndpointPool(options.profile).root;
          outcome = await runPlainRow(plainModel, options.profile, instance, mode);
        }
        const row = finishRow(instance, cell, mode, outcome, options);
        // Replace an earlier failed attempt at the same row, keep everything else.
        file.rows = file.rows.filter((r) => rowKey(r) !== rowKey(row)).concat(row);
        await writeRowFile(options.out, file);
        ran += 1;
        finished += 1;
        options.onRow?.(row, finished, total);
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return { rows: file.rows, ran, skipped };
}

function pickStart(cell: GridCell): Omit<RowStart, 'mode'> {
  const { task, size, unit, seed, item } = cell;
  return item === undefined ? { task, size, unit, seed } : { task, size, unit, seed, item };
}

async function rlmRow(
  instance: TaskInstance,
  cell: GridCell,
  work: string,
  options: BenchOptions,
  runRlm: RlmRowRunner,
): Promise<Partial<BenchRow>> {
  const name = cell.item ?? `${instance.task}-${instance.size}-${instance.seed}`;
  // An item id comes from a dataset file: keep it from naming a path outside the work folder.
  const path = join(work, name.replace(/[^A-Za-z0-9._-]/g, '_'));
  const source = await writeTaskContext(instance.context, path);
  try {
    return await runRlm({
      profile: options.profile,
      instance,
      context: source,
      logDir: options.logDir ?? 'runs',
      ...(options.overrides ? { overrides: options.overrides } : {}),
    });
  } finally {
    await rm(path, { recursive: true, force: true });
  }
}

function finishRow(
  instance: TaskInstance,
  cell: GridCell,
  mode: BenchMode,
  outcome: Partial<BenchRow>,
  options: BenchOptions,
): BenchRow {
  const row: BenchRow = {
    task: cell.task,
    size: cell.size,
    unit: cell.unit,
    seed: cell.seed,
    ...(cell.item !== undefined ? { item: cell.item } : {}),
    mode,
    status: outcome.status ?? 'error',
    ...(cell.tags ? { tags: cell.tags } : {}),
    ...(options.harness ? { harness: options.harness } : {}),
    profile: options.profile.name,
    finishedAt: (options.now?.() ?? new Date()).toISOString(),
  };
  Object.assign(row, outcome);
  if (row.status === 'ok') {
    const score = instance.score(row.answer ?? '');
    row.score = score.score;
    row.exact = score.exact;
    row.summary = score.summary;
  }
  return row;
}
