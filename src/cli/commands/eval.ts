/** `reclamo eval`: your own task modules through the same rlm and plain modes as the bench. */
import type { Command } from 'commander';
import { runBench } from '../../evals/bench/bench.js';
import { loadUserTasks } from '../../evals/user-tasks.js';
import { parseIntegerOption, parseListOption } from '../options.js';
import { parseModes } from './bench.js';
import { defaultRowFile, printProgress, printSummary } from './bench-output.js';
import { openProfile } from './profile-or-offline.js';
import { addRunFlags, type RunFlags, runOverrides } from './run-flags.js';

interface EvalFlags extends RunFlags {
  tasks: string;
  profile?: string;
  seeds: number;
  modes: string[];
  out?: string;
  resume?: boolean;
  logDir: string;
}

export function registerEvalCommand(program: Command): void {
  const command = program
    .command('eval')
    .description(
      'run your task modules (.js/.mjs: generate, question, score) through the rlm and plain modes',
    )
    .requiredOption('--tasks <dir>', 'folder of task modules')
    .option('--profile <name>', 'profile to run against ("scripted" runs offline)')
    .option('--seeds <n>', 'seeds per size (0..n-1)', parseIntegerOption, 1)
    .option(
      '--modes <list>',
      'modes, comma-separated (rlm, plain, plain-think, plain-nothink)',
      parseListOption,
      ['rlm', 'plain'],
    )
    .option('--out <file>', 'row file (JSON); default runs/eval-<UTC stamp>.json')
    .option('--resume', 'continue --out, skipping rows already in it')
    .option('--log-dir <dir>', 'where rlm trajectories go', 'runs');
  addRunFlags(command);
  command.action(async (flags: EvalFlags) => {
    const tasks = await loadUserTasks(flags.tasks);
    const modes = parseModes(flags.modes);
    const handle = await openProfile(flags.profile);
    const out = flags.out ?? defaultRowFile('eval');
    try {
      const result = await runBench({
        profile: handle.profile,
        tasks: tasks.map((t) => t.generator),
        sizes: Object.fromEntries(tasks.map((t) => [t.generator.name, t.sizes])),
        seeds: flags.seeds,
        modes,
        out,
        resume: flags.resume ?? false,
        logDir: flags.logDir,
        overrides: runOverrides(flags),
        onRow: printProgress,
      });
      printSummary(result.rows, out);
    } finally {
      await handle.close();
    }
  });
}
