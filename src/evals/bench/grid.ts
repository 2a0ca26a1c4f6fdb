/** The bench grid: which tasks, sizes, seeds and modes to run, in order. */
import { EvalConfigError } from '../errors.js';
import type { TaskGenerator } from '../task.js';
import type { BenchMode } from './row.js';

/** Sizes each built-in task is benched at when none are given. */
export const DEFAULT_BENCH_SIZES: Record<string, number[]> = {
  needle: [1_000, 10_000, 100_000, 1_000_000],
  'oolong-lite': [100, 300, 1_000],
  'longdoc-qa': [100, 300],
  nested: [12],
};

export interface GridCell {
  task: TaskGenerator;
  size: number;
  seed: number;
  modes: BenchMode[];
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
  modes: BenchMode[],
): GridCell[] {
  const cells: GridCell[] = [];
  for (const task of tasks) {
    const taskSizes = sizes[task.name] ?? DEFAULT_BENCH_SIZES[task.name] ?? [task.defaultSize];
    for (const size of taskSizes) {
      for (let seed = 0; seed < seeds; seed++) cells.push({ task, size, seed, modes });
    }
  }
  return cells;
}
