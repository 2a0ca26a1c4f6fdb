/**
 * `reclamo map --tasks FILE.jsonl`: fans the tasks out as frames under one
 * budget and prints one JSON line per task, in task order, as soon as every
 * earlier one is done. Exit 0 when every task has a value, 3 when some are
 * incomplete, 1 when any failed, 2 for bad input (nothing is sent).
 */
import type { Command } from 'commander';
import type { MapResult } from '../../infer/on-tree.js';
import { DEFAULT_MAX_VIEW_BYTES } from '../../infer/views.js';
import { InferenceStatus } from '../inference-status.js';
import { parsePositiveIntegerOption } from '../options.js';
import {
  addInferenceFlags,
  cancelOnSignals,
  type InferenceFlags,
  readSchemaFile,
  reportError,
  treeOptionsFromFlags,
} from './inference-flags.js';
import { readTasksFile } from './map-tasks.js';

interface MapFlags extends InferenceFlags {
  tasks: string;
  concurrency: number;
}

/** Registers `map` on the program. */
export function registerMapCommand(program: Command): void {
  const command = program
    .command('map')
    .description(
      'run a JSONL file of tasks as inference frames under one budget; one result line per task',
    )
    .requiredOption(
      '--tasks <file.jsonl>',
      'one task per line: "text" or {"task", "views", "schema"}',
    )
    .option('--concurrency <n>', 'frames in flight at once', parsePositiveIntegerOption, 8);
  addInferenceFlags(command).addHelpText(
    'after',
    `
Each output line: {"index", "status": "ok", "value", "traceId"} | {"index", "status": "incomplete",
"observation"} | {"index", "status": "error", "error"}.
Exit codes: 0 every task has a value, 3 some incomplete, 1 some failed, 2 bad input, 130 cancelled.`,
  );
  command.action(async (flags: MapFlags) => {
    process.exitCode = await mapCommand(flags);
  });
}

/** One result as a JSON line. */
function resultLine(index: number, result: MapResult): string {
  const body =
    result.status === 'ok'
      ? { index, status: 'ok', value: result.value, traceId: result.traceId }
      : result.status === 'incomplete'
        ? { index, status: 'incomplete', observation: result.observation }
        : {
            index,
            status: 'error',
            error: { name: result.error.name, message: result.error.message },
            ...(result.traceId ? { traceId: result.traceId } : {}),
          };
  return `${JSON.stringify(body)}\n`;
}

async function mapCommand(flags: MapFlags): Promise<number> {
  const { createBudget, map } = await import('../../infer/index.js');
  const controller = new AbortController();
  let status: InferenceStatus | undefined;
  const removeSignals = cancelOnSignals(controller, () => status?.stop());
  try {
    const tasks = readTasksFile(flags.tasks, flags.maxViewBytes ?? DEFAULT_MAX_VIEW_BYTES);
    const contract = flags.schema === undefined ? undefined : readSchemaFile(flags.schema);
    const budget = createBudget({ calls: flags.calls, tokens: flags.tokens, depth: flags.depth });
    status = process.stderr.isTTY ? new InferenceStatus(process.stderr, tasks.length) : undefined;
    // Lines go out in task order: a finished task waits for the ones before it.
    const waiting = new Map<number, MapResult>();
    let printed = 0;
    const onResult = (index: number, result: MapResult) => {
      waiting.set(index, result);
      for (let next = waiting.get(printed); next !== undefined; next = waiting.get(printed)) {
        waiting.delete(printed);
        process.stdout.write(resultLine(printed, next));
        printed += 1;
      }
    };
    const results = await map(tasks, {
      ...(await treeOptionsFromFlags(flags)),
      budget,
      ...(contract === undefined ? {} : { contract }),
      concurrency: flags.concurrency,
      ...(flags.read ? { capabilities: 'read' as const } : {}),
      abortSignal: controller.signal,
      ...(status ? { onEvent: status.onEvent } : {}),
      onResult,
    });
    status?.stop();
    const count = (s: MapResult['status']) => results.filter((r) => r.status === s).length;
    const left = budget.remaining();
    process.stderr.write(
      `reclamo: ${count('ok')} ok, ${count('incomplete')} incomplete, ${count('error')} failed; ${left.calls} calls and ${left.tokens} tokens left\n`,
    );
    if (controller.signal.aborted) return 130;
    if (count('error') > 0) return 1;
    return count('incomplete') > 0 ? 3 : 0;
  } catch (error) {
    status?.stop();
    return reportError(error);
  } finally {
    removeSignals();
  }
}
