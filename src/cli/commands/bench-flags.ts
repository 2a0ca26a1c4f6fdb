/**
 * What `bench` and every `eval` command share: the profile, modes, row file,
 * resume and trajectory flags (plus the run-setting flags), and running the
 * rows with progress and the closing summary.
 */
import type { Command } from 'commander';
import type { BenchOptions, BenchResult } from '../../evals/bench/bench.js';
import { BENCH_MODES, type BenchMode } from '../../evals/bench/row.js';
import { EvalConfigError } from '../../evals/errors.js';
import { parseListOption } from '../options.js';
import { defaultRowFile, printSummary, rowProgress } from './bench-output.js';
import { openProfile } from './profile-or-offline.js';
import { addRunFlags, type RunFlags, runOverrides } from './run-flags.js';

export interface BenchFlags extends RunFlags {
  profile?: string;
  modes: string[];
  out?: string;
  resume?: boolean;
  logDir: string;
}

/** The options every row-producing command passes on to the library. */
export type CommonBenchOptions = Pick<
  BenchOptions,
  'profile' | 'modes' | 'out' | 'resume' | 'logDir' | 'overrides' | 'onRow' | 'onRowStart'
>;

export function parseModes(modes: string[]): BenchMode[] {
  for (const mode of modes) {
    if (!BENCH_MODES.includes(mode as BenchMode)) {
      throw new EvalConfigError(`unknown mode "${mode}"; modes are ${BENCH_MODES.join(', ')}`);
    }
  }
  return modes as BenchMode[];
}

export function addBenchFlags(command: Command, what: string): Command {
  command
    .option('--profile <name>', 'profile to run against ("scripted" runs offline)')
    .option(
      '--modes <list>',
      `modes, comma-separated (${BENCH_MODES.join(', ')})`,
      parseListOption,
      ['rlm', 'plain'],
    )
    .option('--out <file>', `row file (JSON); default runs/${what}-<UTC stamp>.json`)
    .option('--resume', 'continue --out, skipping rows already in it')
    .option('--log-dir <dir>', 'where rlm trajectories go', 'runs');
  return addRunFlags(command);
}

/**
 * Opens the profile, runs the rows with live progress, prints the summary.
 * `run` gets the common options and returns the bench result.
 */
export async function runRows(
  flags: BenchFlags,
  what: string,
  run: (common: CommonBenchOptions) => Promise<BenchResult>,
  subErrorRate?: number,
): Promise<BenchResult> {
  if (flags.resume && !flags.out)
    throw new EvalConfigError('--resume needs --out FILE (the row file to continue)');
  const modes = parseModes(flags.modes);
  const handle = await openProfile(flags.profile, subErrorRate);
  const out = flags.out ?? defaultRowFile(what);
  const progress = rowProgress();
  try {
    const result = await run({
      profile: handle.profile,
      modes,
      out,
      resume: flags.resume ?? false,
      logDir: flags.logDir,
      overrides: runOverrides(flags),
      onRow: progress.onRow,
      onRowStart: progress.onRowStart,
    });
    progress.close();
    if (result.skipped > 0)
      process.stderr.write(`(${result.skipped} rows already in ${out} were skipped)\n`);
    printSummary(result.rows, out);
    return result;
  } finally {
    progress.close();
    await handle.close();
  }
}
