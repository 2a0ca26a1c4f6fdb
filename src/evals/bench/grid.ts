/** The bench grid: which cells to run (a task instance each), in order, and in which modes. */
import { EvalConfigError } from '../errors.js';
import type { TaskGenerator, TaskInstance, TaskSize } from '../task.js';
import type { BenchRow } from './row.js';

/** Sizes each built-in task is benched at when none are given. */
export const DEFAULT_BENCH_SIZES: Record<string, number[]> = {
  needle: [1_000, 10_000, 100_000, 1_000_000],
  'oolong-lite': [100, 300, 1_000],
  'longdoc-qa': [100, 300],
  nested: [12],
};

/** One cell of a grid: a task instance, built on demand (a cell of a dataset is one item). */
export interface GridCell {
  task: string;
  /** Unit of `size`, plural (e.g. `lines`). */
  unit: string;
  size: TaskSize;
  seed: number;
  /** The dataset item, when cells are items (rows are keyed by it instead of size and seed). */
  item?: string;
  /** Copied onto every row of the cell. */
  tags?: BenchRow['tags'];
  /** Builds the instance (called only when a mode of the cell still has to run). */
  instance(): TaskInstance | Promise<TaskInstance>;
}

/**
 * Parse `--sizes` values: `1000,10000` applies to every task; `needle=1000,10000`
 * to one task. Later values win.
 */
export function parseSizeSpecs(specs: string[], tasks: string[]): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const names = eq >= 0 ? [spec.slice(0, eq).trim()] : tasks;
    const sizes = (eq >= 0 ? spec.slice(eq + 1) : spec).split(',').map((s) => {
      const n = Number(s.trim().replace(/_/g, ''));
      if (!Number.isInteger(n) || n <= 0) {
        throw new EvalConfigError(
          `bad size "${s}" in --sizes "${spec}"; expected positive integers, e.g. 1000,10000 or needle=1000,1e6`,
        );
      }
      return n;
    });
    for (const name of names) {
      if (!tasks.includes(name)) {
        throw new EvalConfigError(
          `--sizes names task "${name}", which is not in --tasks (${tasks.join(', ')})`,
        );
      }
      out[name] = sizes;
    }
  }
  return out;
}

/** Every cell of the grid, task by task, size by size, seed by seed. */
export function gridCells(
  tasks: TaskGenerator[],
  sizes: Record<string, number[]>,
  seeds: number,
): GridCell[] {
  const cells: GridCell[] = [];
  for (const task of tasks) {
    const taskSizes = sizes[task.name] ?? DEFAULT_BENCH_SIZES[task.name] ?? [task.defaultSize];
    for (const size of taskSizes) {
      for (let seed = 0; seed < seeds; seed++) {
        cells.push({
          task: task.name,
          unit: task.sizeUnit,
          size,
          seed,
          instance: () => task.generate({ size, seed }),
        });
      }
    }
  }
  return cells;
}
