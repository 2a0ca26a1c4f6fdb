/** `reclamo eval longbench-v2`: LongBench v2 items (markdown layout) through the bench modes. */
import type { Command } from 'commander';
import { loadLongBenchV2, runLongBenchV2, selectItems } from '../../evals/longbench-v2/load.js';
import { parseListOption } from '../options.js';
import { addBenchFlags, type BenchFlags, runRows } from './bench-flags.js';

interface V2Flags extends BenchFlags {
  dir: string;
  domain?: string[];
  difficulty?: string;
  length?: string;
  list?: boolean;
}

export function registerLongBenchV2(parent: Command): void {
  const command = parent
    .command('longbench-v2')
    .description(
      'LongBench v2 multiple-choice items (<stem>.md + <stem>_context.txt) through the rlm and plain modes, scored by the exact choice letter',
    )
    .requiredOption('--dir <dir>', 'folder of items in the markdown layout')
    .option(
      '--domain <list>',
      'domains to keep, comma-separated (a prefix is enough)',
      parseListOption,
    )
    .option('--difficulty <d>', 'easy or hard')
    .option('--length <l>', 'short, medium or long')
    .option('--list', 'print the selected items and exit (no model is called)');
  addBenchFlags(command, 'longbench-v2');
  command.action(async (flags: V2Flags) => {
    const select = {
      ...(flags.domain ? { domains: flags.domain } : {}),
      ...(flags.difficulty ? { difficulty: flags.difficulty } : {}),
      ...(flags.length ? { length: flags.length } : {}),
    };
    if (flags.list) {
      for (const item of selectItems(await loadLongBenchV2(flags.dir), select)) {
        process.stdout.write(
          `${item.id}\t${item.domain}\t${item.difficulty ?? '-'}\t${item.length ?? '-'}\t${item.file}\n`,
        );
      }
      return;
    }
    await runRows(flags, 'longbench-v2', (common) =>
      runLongBenchV2({ ...common, dir: flags.dir, select }),
    );
  });
}
