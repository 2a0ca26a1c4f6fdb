/** `reclamo bench`: the harness against plain calls over tasks, sizes and seeds. */
import type { Command } from 'commander';
import { runBench } from '../../evals/bench/bench.js';
import { parseSizeSpecs } from '../../evals/bench/grid.js';
import { asLegacyVariant, parseLegacyVariant } from '../../evals/bench/legacy-plain.js';
import { readRowFile } from '../../evals/bench/row-file.js';
import { EvalConfigError } from '../../evals/errors.js';
import { BUILTIN_TASKS, getTask } from '../../evals/tasks/index.js';
import { parseIntegerOption, parseListOption, parseRateOption } from '../options.js';
import { addBenchFlags, type BenchFlags, runRows } from './bench-flags.js';
import { printSummary } from './bench-output.js';

interface BenchCommandFlags extends BenchFlags {
  tasks: string[];
  sizes: string[];
  seeds: number;
  summaryOnly?: string;
  legacyPlain?: string;
  subErrorRate?: number;
}

export function registerBenchCommand(program: Command): void {
  const command = program
    .command('bench')
    .description('benchmark the harness (rlm) against one plain call with the whole context')
    .option(
      '--tasks <list>',
      `tasks, comma-separated (${BUILTIN_TASKS.map((t) => t.name).join(', ')})`,
      parseListOption,
      ['needle', 'oolong-lite', 'longdoc-qa'],
    )
    .option(
      '--sizes <spec>',
      'sizes: "1000,10000" for every task or "needle=1000,1000000" for one (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option('--seeds <n>', 'seeds per cell (0..n-1)', parseIntegerOption, 1)
    .option('--summary-only <file>', 'print the markdown summary of a row file and exit')
    .option(
      '--legacy-plain <variant>',
      'with --summary-only: summarise an old best-of-2 row file as one plain variant (thinking or nothink)',
    )
    .option(
      '--sub-error-rate <r>',
      'scripted profile only: share of labels the reader gets wrong',
      parseRateOption,
    );
  addBenchFlags(command, 'bench');
  command.action(async (flags: BenchCommandFlags) => {
    if (flags.legacyPlain !== undefined && !flags.summaryOnly) {
      throw new EvalConfigError('--legacy-plain goes with --summary-only FILE');
    }
    if (flags.summaryOnly) {
      const variant =
        flags.legacyPlain === undefined ? undefined : parseLegacyVariant(flags.legacyPlain);
      const file = await readRowFile(flags.summaryOnly);
      if (!file) throw new EvalConfigError(`${flags.summaryOnly}: no such row file`);
      let rows = file.rows;
      if (variant) {
        const legacy = asLegacyVariant(rows, variant);
        rows = legacy.rows;
        process.stderr.write(
          `(${legacy.replaced} best-of-2 plain rows summarised as their ${variant} attempt alone)\n`,
        );
      }
      printSummary(rows, flags.summaryOnly);
      return;
    }
    const tasks = flags.tasks.map(getTask);
    const sizes = parseSizeSpecs(
      flags.sizes,
      tasks.map((t) => t.name),
    );
    await runRows(
      flags,
      'bench',
      (common) => runBench({ ...common, tasks, sizes, seeds: flags.seeds }),
      flags.subErrorRate,
    );
  });
}
