/** The built-in task generators, by name. */
import { EvalConfigError } from '../errors.js';
import type { TaskGenerator } from '../task.js';
import { longdocQa } from './longdoc-qa.js';
import { needle } from './needle.js';
import { nested } from './nested.js';
import { oolongLite } from './oolong-lite.js';

export const BUILTIN_TASKS: readonly TaskGenerator[] = [needle, oolongLite, longdocQa, nested];

/** Look a built-in task up by name; a clear error lists the known names. */
export function getTask(name: string): TaskGenerator {
  const task = BUILTIN_TASKS.find((t) => t.name === name || t.name.replace('-', '_') === name);
  if (!task) {
    throw new EvalConfigError(
      `unknown task "${name}"; built-in tasks are ${BUILTIN_TASKS.map((t) => t.name).join(', ')}`,
    );
  }
  return task;
}

export { longdocQa, needle, nested, oolongLite };
