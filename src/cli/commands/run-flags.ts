/**
 * The run-setting flags, parsed in one place for every command that runs the
 * harness: `run`, and the rlm rows of `bench` and `eval`. Each flag maps to
 * one `run()` option (RunOverrides); its parser refuses a bad value naming the
 * flag, before anything runs.
 */
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { RunOverrides } from '../../rlm/settings.js';
import {
  parseCeilingFraction,
  parseMemoryHeadroomOption,
  parsePositiveIntegerOption,
  parseThresholdFraction,
} from '../options.js';

/** The run-setting flags as commander hands them over. */
export interface RunFlags {
  promptVersion?: string;
  maxDepth?: number;
  maxIterations?: number;
  maxErrors?: number;
  maxTimeout?: number;
  tokenBudget?: number;
  outputTruncateChars?: number;
  protocol?: 'fence' | 'tools';
  plannerStyle?: string;
  systemPromptFile?: string;
  compactionThresholdPct?: number;
  hardCeilingPct?: number;
  memoryHeadroomMb?: number;
}

function positiveSeconds(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new InvalidArgumentError(`expected a positive number of seconds, got "${value}"`);
  }
  return n;
}

/** Adds every run-setting flag to `command`. */
export function addRunFlags(command: Command): Command {
  return command
    .option(
      '--max-depth <n>',
      'recursion depth: 1 = plain sub-calls only, 2 = rlm_query starts child RLMs (default 1)',
      parsePositiveIntegerOption,
    )
    .option(
      '--max-iterations <n>',
      'root turns before a forced finish (default: 30 for v0.2, 20 for v0.1)',
      parsePositiveIntegerOption,
    )
    .option(
      '--max-errors <n>',
      'consecutive failing executions before the run stops (default 3)',
      parsePositiveIntegerOption,
    )
    .option(
      '--max-timeout <seconds>',
      'wall-clock bound for the whole run (default: 3600 for v0.2, 1800 for v0.1)',
      positiveSeconds,
    )
    .option(
      '--token-budget <n>',
      'total tokens (in + out, all roles) the run may spend',
      parsePositiveIntegerOption,
    )
    .option(
      '--output-truncate-chars <n>',
      'characters of each block output shown to the root model (default: 20000 for v0.2, 2000 for v0.1)',
      parsePositiveIntegerOption,
    )
    .addOption(
      new Option(
        '--protocol <name>',
        "how the root model acts: fenced code and FINAL text, or execute_python / final_answer tool calls (default: the profile's, else fence)",
      ).choices(['fence', 'tools']),
    )
    .option('--prompt-version <version>', 'root prompt version: v0.2 (default) or v0.1')
    .option(
      '--planner-style <style>',
      "root message layout: reclamo, or upstream-rlm-v0 for checkpoints trained on the upstream RLM scaffold (default: the profile's, else reclamo)",
    )
    .option(
      '--system-prompt-file <path>',
      'a file whose text replaces the built-in system prompt verbatim',
    )
    .option(
      '--memory-headroom-mb <n>',
      "MiB each REPL worker (a child RLM's too) may grow by after loading its context; past it the code gets MemoryError (default: the profile's, else 4096)",
      parseMemoryHeadroomOption,
    )
    .option(
      '--compaction-threshold-pct <fraction>',
      "compact the root history once a request would exceed this share of the window, 0 < x < 1 (default: the profile's, else at the budget)",
      parseThresholdFraction,
    )
    .option(
      '--hard-ceiling-pct <fraction>',
      "never send a root request above this share of the window, 0 < x <= 1, above the threshold (default: the profile's, else none)",
      parseCeilingFraction,
    );
}

/** The `run()` options the flags set (unset flags leave the profile's values). */
export function runOverrides(flags: RunFlags): RunOverrides {
  const overrides: RunOverrides = {};
  if (flags.promptVersion !== undefined) overrides.promptVersion = flags.promptVersion;
  if (flags.maxDepth !== undefined) overrides.maxDepth = flags.maxDepth;
  if (flags.maxIterations !== undefined) overrides.maxIterations = flags.maxIterations;
  if (flags.maxErrors !== undefined) overrides.maxErrors = flags.maxErrors;
  if (flags.maxTimeout !== undefined) overrides.maxTimeout = flags.maxTimeout;
  if (flags.tokenBudget !== undefined) overrides.tokenBudget = flags.tokenBudget;
  if (flags.outputTruncateChars !== undefined)
    overrides.outputTruncateChars = flags.outputTruncateChars;
  if (flags.protocol !== undefined) overrides.protocol = flags.protocol;
  if (flags.plannerStyle !== undefined) overrides.plannerStyle = flags.plannerStyle;
  // A relative path is the user's, from where the command runs.
  if (flags.systemPromptFile !== undefined)
    overrides.systemPromptFile = resolve(flags.systemPromptFile);
  if (flags.compactionThresholdPct !== undefined) {
    overrides.compactionThresholdPct = flags.compactionThresholdPct;
  }
  if (flags.hardCeilingPct !== undefined) overrides.hardCeilingPct = flags.hardCeilingPct;
  if (flags.memoryHeadroomMb !== undefined) overrides.memoryHeadroomMb = flags.memoryHeadroomMb;
  return overrides;
}
