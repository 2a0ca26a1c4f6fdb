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
import { gridCells } from './grid.js';
import { runPlainRow } from './plain-row.js';
import { type RlmRowRunner, runRlmRow } from './rlm-row.js';
import { type BenchMode, type BenchRow, rowKey } from './row.js';
import { type RowFile, readRowFile, writeRowFile } from './row-file.js';

export interface BenchOptions {
  /** The profile every row runs against (its root role also answers the plain calls). */
  profile: ResolvedProfile;
  tasks: TaskGenerator[];
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
  /** Stop after this many new rows (for tests of resume). */
  maxRows?: number;
  /** Run an rlm row; defaults to the real harness. */
  runRlm?: RlmRowRunner;
  /** Model for plain rows; defaults to one built from the profile's root role. */
  plainModel?: LanguageModel;
  /** Clock for `finishedAt`. */
  now?: () => Date;
}

export interface BenchResult {
  rows: BenchRow[];
  /** Rows run now (not skipped by resume). */
  ran: number;
  skipped: number;
}

export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const modes = options.modes ?? ['rlm', 'plain'];
  const cells = gridCells(options.tasks, options.sizes ?? {}, options.seeds ?? 1, modes);
  const existing = await readRowFile(options.out);
  if (existing && existing.rows.length > 0 && !options.resume) {
    throw new EvalConfigError(
      `${options.out} already holds ${existing.rows.length} rows. Fix: pass --resume to continue it, or choose another --out.`,
    );
  }
  const file: RowFile = existing ?? {
    version: 1,
    meta: { profile: options.profile.name, modes, seeds: options.seeds ?? 1 },
    rows: [],
  };
  await mkdir(dirname(options.out), { recursive: true });
  const done = new Set(file.rows.filter((r) => r.status !== 'error').map(rowKey));
  const total = cells.length * modes.length;
  const work = join(tmpdir(), `reclamo-bench-${process.pid}-${Date.now()}`);
  const runRlm = options.runRlm ?? runRlmRow;
  let plainModel = options.plainModel;
  let ran = 0;
  let skipped = 0;
  try {
    for (const cell of cells) {
      const todo = cell.modes.filter(
        (mode) => !done.has(rowKey({ ...cell, task: cell.task.name, mode })),
      );
      skipped += cell.modes.length - todo.length;
      if (todo.length === 0) continue;
      const instance = cell.task.generate({ size: cell.size, seed: cell.seed });
      for (const mode of todo) {
        if (options.maxRows !== undefined && ran >= options.maxRows)
          return { rows: file.rows, ran, skipped };
        let outcome: Partial<BenchRow>;
        if (mode === 'rlm') {
          outcome = await rlmRow(instance, work, options, runRlm);
        } else {
          plainModel ??= createEndpointPool(options.profile).root;
          outcome = await runPlainRow(plainModel, options.profile, instance, mode);
        }
        const row = finishRow(instance, cell.task, mode, outcome, options);
        // Replace an earlier failed attempt at the same row, keep everything else.
        file.rows = file.rows.filter((r) => rowKey(r) !== rowKey(row)).concat(row);
        await writeRowFile(options.out, file);
        ran += 1;
        options.onRow?.(row, file.rows.length, total);
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return { rows: file.rows, ran, skipped };
}

async function rlmRow(
  instance: TaskInstance,
  work: string,
  options: BenchOptions,
  runRlm: RlmRowRunner,
): Promise<Partial<BenchRow>> {
  const path = join(work, `${instance.task}-${instance.size}-${instance.seed}`);
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
  task: TaskGenerator,
  mode: BenchMode,
  outcome: Partial<BenchRow>,
  options: BenchOptions,
): BenchRow {
  const row: BenchRow = {
    task: instance.task,
    size: instance.size,
    unit: task.sizeUnit,
    seed: instance.seed,
    mode,
    status: outcome.status ?? 'error',
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
