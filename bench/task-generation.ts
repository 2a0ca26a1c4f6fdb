/**
 * How fast the task generators build and write their contexts.
 * `npm run bench -- task-generation` prints one line per task.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { contextStats, writeTaskContext } from '../src/evals/context-file.js';
import { getTask } from '../src/evals/tasks/index.js';

const cases: [string, number][] = [
  ['needle', 1_000_000],
  ['oolong-lite', 1_000],
  ['longdoc-qa', 300],
  ['nested', 12],
];
const dir = join(process.cwd(), '.artifacts/bench-task-generation');
for (const [name, size] of cases) {
  const t0 = performance.now();
  const instance = getTask(name).generate({ size, seed: 0 });
  const t1 = performance.now();
  await writeTaskContext(instance.context, join(dir, name));
  const t2 = performance.now();
  const { chars } = contextStats(instance.context);
  console.log(
    `${name.padEnd(12)} size ${String(size).padStart(9)}  ${(chars / 1e6).toFixed(1).padStart(5)} M chars  generate ${(t1 - t0).toFixed(0).padStart(5)} ms  write ${(t2 - t1).toFixed(0).padStart(5)} ms`,
  );
}
await rm(dir, { recursive: true, force: true });
