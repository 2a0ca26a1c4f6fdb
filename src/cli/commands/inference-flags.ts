/**
 * What `reclamo infer` and `reclamo map` share: the budget flags, the read
 * capability, the trace folder, the model flags, Ctrl-C, and the library
 * options they become.
 */
import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import { ConfigError, KeyError } from '../../errors.js';
import type { JsonSchema } from '../../infer/contract.js';
import { DEFAULT_BUDGET, type TreeOptions } from '../../infer/options.js';
import type { ReasoningEffort } from '../../lm/model.js';
import { fsReason } from '../../util/fs-reason.js';
import { safeParseJson } from '../../util/safe-json.js';
import { addModelFlags, type ModelFlags, profileFromFlags } from '../model-flags.js';
import { parsePositiveIntegerOption } from '../options.js';

/** The flags both commands take. */
export interface InferenceFlags extends ModelFlags {
  schema?: string;
  calls: number;
  tokens: number;
  depth: number;
  read?: string[] | boolean;
  maxToolRounds?: number;
  effort?: ReasoningEffort;
  logDir: string;
  maxViewBytes?: number;
}

const EFFORTS = ['minimal', 'low', 'medium', 'high'];

/** Registers the shared flags on `command`. */
export function addInferenceFlags(command: Command): Command {
  addModelFlags(command)
    .option(
      '--schema <file.json>',
      'a JSON Schema (draft 2020-12) the answer must meet; the value is printed as JSON',
    )
    .option(
      '--calls <n>',
      'provider requests the whole tree may make',
      parsePositiveIntegerOption,
      DEFAULT_BUDGET.calls,
    )
    .option(
      '--tokens <n>',
      'tokens the whole tree may spend (new input + output; cached input is free)',
      parsePositiveIntegerOption,
      DEFAULT_BUDGET.tokens,
    )
    .option(
      '--depth <n>',
      'frame levels: 1 = no nested frames',
      parsePositiveIntegerOption,
      DEFAULT_BUDGET.depth,
    )
    .option(
      '--read [dir...]',
      'let frames read and search files under these folders (default: the current one) and ask nested frames',
    )
    .option(
      '--max-tool-rounds <n>',
      'tool rounds a read frame may take before it must answer (default 8)',
      parsePositiveIntegerOption,
    )
    .option(
      '--effort <level>',
      `reasoning effort for every request: ${EFFORTS.join(', ')}`,
      (value: string) => {
        if (!EFFORTS.includes(value)) {
          throw new InvalidArgumentError(`expected one of ${EFFORTS.join(', ')}, got "${value}"`);
        }
        return value;
      },
    )
    .option(
      '--max-view-bytes <n>',
      'largest view in bytes (default 4194304)',
      parsePositiveIntegerOption,
    )
    .option('--log-dir <dir>', 'folder for traces (written to <dir>/inferences/)', 'runs');
  return command;
}

/** Reads `--schema FILE`: a ConfigError naming the flag when it cannot be read or parsed. */
export function readSchemaFile(path: string, flag = '--schema'): JsonSchema {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${flag} ${path}: cannot read it: ${fsReason(error)}.`, path);
  }
  const parsed = safeParseJson<JsonSchema>(text);
  if (!parsed.ok)
    throw new ConfigError(
      `${flag} ${path}: not JSON (${parsed.error}). Give a JSON Schema file.`,
      path,
    );
  if (typeof parsed.value !== 'object' && typeof parsed.value !== 'boolean') {
    throw new ConfigError(`${flag} ${path}: a JSON Schema is an object (or true / false).`, path);
  }
  return parsed.value;
}

/** The library options the flags stand for (the budget is made by the caller's `createBudget`). */
export async function treeOptionsFromFlags(
  flags: InferenceFlags,
): Promise<Omit<TreeOptions, 'budget'>> {
  const read = flags.read;
  return {
    profile: await profileFromFlags(flags),
    logDir: flags.logDir,
    ...(Array.isArray(read) ? { readRoots: read } : {}),
    ...(flags.maxToolRounds === undefined ? {} : { maxToolRounds: flags.maxToolRounds }),
    ...(flags.effort === undefined ? {} : { effort: flags.effort }),
    ...(flags.maxViewBytes === undefined ? {} : { maxViewBytes: flags.maxViewBytes }),
  };
}

/** Ctrl-C / SIGTERM cancel the tree's requests; a second one quits at once. Returns a remover. */
export function cancelOnSignals(controller: AbortController, onFirst: () => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    onFirst();
    process.stderr.write(`reclamo: ${signal}: cancelling (press Ctrl-C again to quit at once)\n`);
    controller.abort(new Error(`cancelled by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

/** Prints the error that ended the command and returns its exit code: 2 for bad input, 1 for the rest. */
export function reportError(error: unknown): number {
  process.stderr.write(
    `reclamo: ${cliMessage(error instanceof Error ? error.message : String(error))}\n`,
  );
  return exitCodeForError(error);
}

/** Exit code for an error that ended the command: 2 for bad input, 1 for the rest. */
export function exitCodeForError(error: unknown): number {
  return error instanceof ConfigError || error instanceof KeyError ? 2 : 1;
}

const OPTION_TO_FLAG: [string, string][] = [
  ['maxViewBytes', '--max-view-bytes'],
  ['logDir', '--log-dir'],
  ['readRoots', '--read'],
  ['maxToolRounds', '--max-tool-rounds'],
  ['createBudget({ calls, tokens, depth })', '--calls, --tokens and --depth'],
];

/** A library message with its option names turned into this command's flags. */
export function cliMessage(message: string): string {
  let out = message;
  for (const [option, flag] of OPTION_TO_FLAG) out = out.split(option).join(flag);
  return out;
}
