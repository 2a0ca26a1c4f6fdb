/** `reclamo bench`: the harness against plain calls over tasks, sizes and seeds. */
import type { Command } from 'commander';
import { runBench } from '../../evals/bench/bench.js';
import { parseSizeSpecs } from '../../evals/bench/grid.js';
import { BENCH_MODES, type BenchMode } from '../../evals/bench/row.js';
import { readRowFile } from '../../evals/bench/row-file.js';
import { EvalConfigError } from '../../evals/errors.js';
import { BUILTIN_TASKS, getTask } from '../../evals/tasks/index.js';
import { parseIntegerOption, parseListOption, parseRateOption } from '../options.js';
import { defaultRowFile, printProgress, printSummary } from './bench-output.js';
import { openProfile } from './profile-or-offline.js';
import { addRunFlags, type RunFlags, runOverrides } from './run-flags.js';

interface BenchFlags extends RunFlags {
  profile?: string;
  tasks: string[];
  sizes: string[];
  seeds: number;
  modes: string[];
  out?: string;
  resume?: boolean;
  summaryOnly?: string;
  logDir: string;
  subErrorRate?: number;
}

export function parseModes(modes: string[]): BenchMode[] {
  for (const mode of modes) {
    if (!BENCH_MODES.includes(mode as BenchMode)) {
      throw new EvalConfigError(`unknown mode "${mode}"; modes are ${BENCH_MODES.join(', ')}`);
    }
  }
  return modes as BenchMode[];
}

export function registerBenchCommand(program: Command): void {
  const command = program
    .command('bench')
    .description('benchmark the harness (rlm) against one plain call with the whole context')
    .option(
      '--profile <name>',
      'profile to run against; "scripted" runs offline on the scripted policies',
    )
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
    .option(
      '--modes <list>',
      `modes, comma-separated (${BENCH_MODES.join(', ')})`,
      parseListOption,
      ['rlm', 'plain'],
    )
    .option('--out <file>', 'row file (JSON); default runs/bench-<UTC stamp>.json')
    .option('--resume', 'continue --out, skipping rows already in it')
    .option('--summary-only <file>', 'print the markdown summary of a row file and exit')
    .option('--log-dir <dir>', 'where rlm trajectories go', 'runs')
    .option(
      '--sub-error-rate <r>',
      'scripted profile only: share of labels the reader gets wrong',
      parseRateOption,
    );
  addRunFlags(command);
  command.action(async (flags: BenchFlags) => {
    if (flags.summaryOnly) {
      const file = await readRowFile(flags.summaryOnly);
      if (!file) throw new EvalConfigError(`${flags.summaryOnly}: no such row file`);
      printSummary(file.rows, flags.summaryOnly);
      return;
    }
    if (flags.resume && !flags.out)
      throw new EvalConfigError('--resume needs --out FILE (the row file to continue)');
    const tasks = flags.tasks.map(getTask);
    const sizes = parseSizeSpecs(
      flags.sizes,
      tasks.map((t) => t.name),
    );
    const handle = await openProfile(flags.profile, flags.subErrorRate);
    const out = flags.out ?? defaultRowFile('bench');
    try {
      const result = await runBench({
        profile: handle.profile,
        tasks,
        sizes,
        seeds: flags.seeds,
        modes: parseModes(flags.modes),
        out,
        resume: flags.resume ?? false,
        logDir: flags.logDir,
        overrides: runOverrides(flags),
        onRow: printProgress,
      });
      if (result.skipped > 0)
        process.stderr.write(`(${result.skipped} rows already in ${out} were skipped)\n`);
      printSummary(result.rows, out);
    } finally {
      await handle.close();
    }
  });
}
