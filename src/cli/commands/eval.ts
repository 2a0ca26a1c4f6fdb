/**
 * `reclamo eval`: your own task modules through the same rlm and plain modes
 * as the bench (`eval --tasks DIR`), and the dataset and frozen evals as
 * subcommands (`eval longbench-pro ...`, `eval longbench-v2 ...`).
 */
import type { Command } from 'commander';
import { runBench } from '../../evals/bench/bench.js';
import { EvalConfigError } from '../../evals/errors.js';
import { loadUserTasks } from '../../evals/user-tasks.js';
import { parseIntegerOption } from '../options.js';
import { addBenchFlags, type BenchFlags, runRows } from './bench-flags.js';
import { registerLongBenchPro } from './eval-longbench-pro.js';
import { registerLongBenchV2 } from './eval-longbench-v2.js';

interface EvalFlags extends BenchFlags {
  tasks?: string;
  seeds: number;
}

export function registerEvalCommand(program: Command): void {
  const command = program
    .command('eval')
    .description(
      'run task modules (.js/.mjs: generate, question, score) through the rlm and plain modes; or a dataset eval (see the subcommands)',
    )
    .option('--tasks <dir>', 'folder of task modules')
    .option('--seeds <n>', 'seeds per size (0..n-1)', parseIntegerOption, 1);
  addBenchFlags(command, 'eval');
  command.action(async (flags: EvalFlags) => {
    if (flags.tasks === undefined) {
      throw new EvalConfigError(
        'eval needs --tasks DIR (a folder of task modules), or a subcommand: longbench-pro, longbench-v2. See reclamo eval --help.',
      );
    }
    const tasks = await loadUserTasks(flags.tasks);
    await runRows(flags, 'eval', (common) =>
      runBench({
        ...common,
        tasks: tasks.map((t) => t.generator),
        sizes: Object.fromEntries(tasks.map((t) => [t.generator.name, t.sizes])),
        seeds: flags.seeds,
      }),
    );
  });
  registerLongBenchPro(command);
  registerLongBenchV2(command);
}
