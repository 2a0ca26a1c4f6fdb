/** `reclamo tasks`: list the built-in task generators and dump an instance without a model. */
import { once } from 'node:events';
import type { Command } from 'commander';
import { contextText, writeTaskContext } from '../../evals/context-file.js';
import { BUILTIN_TASKS, getTask } from '../../evals/tasks/index.js';
import { parseIntegerOption } from '../options.js';

export function registerTasksCommand(program: Command): void {
  const tasks = program
    .command('tasks')
    .description('list the built-in evaluation tasks, or dump one instance (context and truth)');

  tasks
    .command('list')
    .description('list the built-in tasks with their size unit and default size')
    .action(() => {
      for (const task of BUILTIN_TASKS) {
        process.stdout.write(
          `${task.name.padEnd(12)} ${String(task.defaultSize).padStart(9)} ${task.sizeUnit.padEnd(12)} ${task.description}\n`,
        );
      }
    });

  tasks
    .command('dump')
    .description(
      "print an instance's context (or, with --truth, its question and answer key); no model is called",
    )
    .argument('<task>', `one of ${BUILTIN_TASKS.map((t) => t.name).join(', ')}`)
    .option(
      '--size <n>',
      "size in the task's unit (default: the task's default)",
      parseIntegerOption,
    )
    .option('--seed <n>', 'generator seed', parseIntegerOption, 0)
    .option('--truth', 'print the question and the answer key as JSON instead of the context')
    .option(
      '--out <path>',
      'write the context to this file (a directory for nested) instead of stdout',
    )
    .action(
      async (
        name: string,
        options: { size?: number; seed: number; truth?: boolean; out?: string },
      ) => {
        const generator = getTask(name);
        const instance = generator.generate({
          size: options.size ?? generator.defaultSize,
          seed: options.seed,
        });
        if (options.truth) {
          const { task, size, seed, question, truth } = instance;
          await writeOut(`${JSON.stringify({ task, size, seed, question, truth }, null, 2)}\n`);
          return;
        }
        if (options.out) {
          const source = await writeTaskContext(instance.context, options.out);
          process.stderr.write(`wrote ${source.kind} ${options.out}\n`);
          return;
        }
        const parts =
          instance.context.kind === 'text'
            ? instance.context.chunks
            : [contextText(instance.context)];
        for (const part of parts) await writeOut(part);
      },
    );
}

/** Write to stdout with back-pressure; a closed pipe (e.g. `| head`) ends quietly. */
async function writeOut(text: string): Promise<void> {
  if (process.stdout.destroyed) return;
  if (!process.stdout.write(text)) {
    await Promise.race([once(process.stdout, 'drain'), once(process.stdout, 'close')]);
  }
}
