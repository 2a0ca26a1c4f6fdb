/** Run-setting flags shared by `bench` and `eval` (rlm rows). */
import type { Command } from 'commander';
import type { RunOverrides } from '../../rlm/settings.js';
import {
  parseCeilingFraction,
  parseIntegerOption,
  parseMemoryHeadroomOption,
  parseThresholdFraction,
} from '../options.js';

export interface RunFlags {
  promptVersion?: string;
  maxIterations?: number;
  maxDepth?: number;
  maxTimeout?: number;
  outputTruncateChars?: number;
  protocol?: 'fence' | 'tools';
  plannerStyle?: string;
  compactionThresholdPct?: number;
  hardCeilingPct?: number;
  memoryHeadroomMb?: number;
}

export function addRunFlags(command: Command): Command {
  return command
    .option('--prompt-version <v>', 'root prompt version for rlm rows (v0.1, v0.2)')
    .option('--max-iterations <n>', 'root turns per rlm row', parseIntegerOption)
    .option('--max-depth <n>', 'recursion depth for rlm rows', parseIntegerOption)
    .option('--max-timeout <s>', 'seconds per rlm row', parseIntegerOption)
    .option('--output-truncate-chars <n>', 'REPL output shown per block', parseIntegerOption)
    .option('--protocol <p>', 'fence or tools')
    .option('--planner-style <style>', 'reclamo (default) or upstream-rlm-v0')
    .option(
      '--compaction-threshold-pct <fraction>',
      'compaction threshold for rlm rows, 0 < x < 1 of the root window',
      parseThresholdFraction,
    )
    .option(
      '--hard-ceiling-pct <fraction>',
      'largest root request for rlm rows, 0 < x <= 1 of the root window',
      parseCeilingFraction,
    )
    .option(
      '--memory-headroom-mb <n>',
      'MiB each REPL worker may grow by after loading its context (default 4096)',
      parseMemoryHeadroomOption,
    );
}

export function runOverrides(flags: RunFlags): RunOverrides {
  const o: RunOverrides = {};
  if (flags.promptVersion !== undefined) o.promptVersion = flags.promptVersion;
  if (flags.maxIterations !== undefined) o.maxIterations = flags.maxIterations;
  if (flags.maxDepth !== undefined) o.maxDepth = flags.maxDepth;
  if (flags.maxTimeout !== undefined) o.maxTimeout = flags.maxTimeout;
  if (flags.outputTruncateChars !== undefined) o.outputTruncateChars = flags.outputTruncateChars;
  if (flags.protocol !== undefined) o.protocol = flags.protocol;
  if (flags.plannerStyle !== undefined) o.plannerStyle = flags.plannerStyle;
  if (flags.compactionThresholdPct !== undefined) {
    o.compactionThresholdPct = flags.compactionThresholdPct;
  }
  if (flags.hardCeilingPct !== undefined) o.hardCeilingPct = flags.hardCeilingPct;
  if (flags.memoryHeadroomMb !== undefined) o.memoryHeadroomMb = flags.memoryHeadroomMb;
  return o;
}
