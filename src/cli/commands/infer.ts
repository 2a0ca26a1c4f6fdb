/**
 * `reclamo infer -q TASK [--view FILE]... [--view-text TEXT]... [--schema FILE]`:
 * one inference frame; prints the value (JSON for a schema). Exit 0 with a
 * value, 3 incomplete (the observation as JSON on stdout), 2 bad input, 1 an
 * endpoint or frame failure.
 */
import type { Command } from 'commander';
import type { View } from '../../infer/views.js';
import { InferenceStatus } from '../inference-status.js';
import {
  addInferenceFlags,
  cancelOnSignals,
  cliMessage,
  type InferenceFlags,
  readSchemaFile,
  reportError,
  treeOptionsFromFlags,
} from './inference-flags.js';

interface InferFlags extends InferenceFlags {
  query: string;
  view: string[];
  viewText: string[];
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** Registers `infer` on the program. */
export function registerInferCommand(program: Command): void {
  const command = program
    .command('infer')
    .description('run one bounded inference frame over explicit views and print its value')
    .requiredOption('-q, --query <task>', 'the task')
    .option('--view <file>', 'a file the frame reads (repeatable)', collect, [])
    .option('--view-text <text>', 'literal text the frame reads (repeatable)', collect, []);
  addInferenceFlags(command).addHelpText(
    'after',
    `
Exit codes: 0 value printed, 3 incomplete (budget ran out; the observation is printed as JSON),
2 bad input (schema, view, flag), 1 endpoint or frame failure, 130 cancelled.

Examples:
  reclamo infer -q "List the invariants." --view src/store.ts --schema invariants.json
  reclamo infer -q "Summarize." --view-text "..." --base-url http://127.0.0.1:8080/v1 --model qwen3-8b`,
  );
  command.action(async (flags: InferFlags) => {
    process.exitCode = await inferCommand(flags);
  });
}

async function inferCommand(flags: InferFlags): Promise<number> {
  const { createBudget, inferTraced, PartialResultError } = await import('../../infer/index.js');
  const status = process.stderr.isTTY ? new InferenceStatus(process.stderr) : undefined;
  const controller = new AbortController();
  const removeSignals = cancelOnSignals(controller, () => status?.stop());
  try {
    const contract = flags.schema === undefined ? undefined : readSchemaFile(flags.schema);
    const views: View[] = [
      ...flags.view.map((path) => ({ path })),
      ...flags.viewText.map((text, i) => ({ label: `text ${i + 1}`, content: text })),
    ];
    const budget = createBudget({ calls: flags.calls, tokens: flags.tokens, depth: flags.depth });
    const { value, traceId } = await inferTraced(flags.query, {
      ...(await treeOptionsFromFlags(flags)),
      budget,
      views,
      ...(contract === undefined ? {} : { contract }),
      ...(flags.read ? { capabilities: 'read' as const } : {}),
      abortSignal: controller.signal,
      ...(status ? { onEvent: status.onEvent } : {}),
    });
    status?.stop();
    process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`);
    const left = budget.remaining();
    process.stderr.write(
      `reclamo: inference:${traceId}; ${left.calls} calls and ${left.tokens} tokens left\n`,
    );
    return 0;
  } catch (error) {
    status?.stop();
    if (PartialResultError.isInstance(error)) {
      process.stdout.write(`${JSON.stringify(error.observation, null, 2)}\n`);
      process.stderr.write(`reclamo: ${cliMessage(error.message)}\n`);
      return 3;
    }
    if (controller.signal.aborted) {
      process.stderr.write('reclamo: cancelled\n');
      return 130;
    }
    return reportError(error);
  } finally {
    removeSignals();
  }
}
