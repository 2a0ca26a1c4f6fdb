/**
 * User task modules for `reclamo eval`: each `.js` / `.mjs` file in a folder
 * exports a task (a generator, its question, a scorer), adapted here to the
 * same TaskGenerator the built-in tasks use, so the bench's rlm and plain
 * modes run it unchanged.
 *
 * ```js
 * export default {
 *   name: 'capitals',                 // optional; defaults to the file name
 *   sizes: [10, 100],                 // optional; sizes to run (default [1])
 *   question: 'Which ...?',           // or return `question` from generate()
 *   generate({ size, seed }) { return { context: '...', truth: 'Paris' }; },
 *   score(answer, truth) { return answer.trim() === truth; },  // boolean, 0..1, or {score, exact, summary}
 * };
 * ```
 */
import { readdir } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isRecord } from '../util/safe-json.js';
import { EvalConfigError } from './errors.js';
import type { Score, TaskContext, TaskGenerator, TaskInstance } from './task.js';

/** A user task as loaded, with the sizes it asks to be run at. */
export interface UserTask {
  generator: TaskGenerator;
  sizes: number[];
  file: string;
}

type Fn = (...args: unknown[]) => unknown;

function toContext(value: unknown, file: string): TaskContext {
  if (typeof value === 'string') return { kind: 'text', chunks: [value] };
  if (isRecord(value) && Object.values(value).every((v) => typeof v === 'string')) {
    return { kind: 'dict', files: value as Record<string, string> };
  }
  throw new EvalConfigError(
    `${file}: generate() must return { context } as a string or an object of strings, got ${typeof value}`,
  );
}

function toScore(value: unknown, file: string): Score {
  if (typeof value === 'boolean') {
    return { score: value ? 1 : 0, exact: value, summary: value ? 'right' : 'wrong' };
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    return {
      score: value,
      exact: value >= 1,
      summary: value >= 1 ? 'right' : `score ${value.toFixed(2)}`,
    };
  }
  if (isRecord(value) && typeof value.score === 'number') {
    const exact = typeof value.exact === 'boolean' ? value.exact : value.score >= 1;
    const summary =
      typeof value.summary === 'string' ? value.summary : exact ? 'right' : `score ${value.score}`;
    return { score: value.score, exact, summary };
  }
  throw new EvalConfigError(
    `${file}: score() must return a boolean, a number, or { score, exact?, summary? }`,
  );
}

/** Adapt one loaded module to a TaskGenerator; errors name the file and what is missing. */
export function adaptUserTask(module: unknown, file: string): UserTask {
  const spec = isRecord(module) && isRecord(module.default) ? module.default : module;
  if (!isRecord(spec) || typeof spec.generate !== 'function' || typeof spec.score !== 'function') {
    throw new EvalConfigError(
      `${file}: a task module must export (as default or by name) generate({ size, seed }) and score(answer, truth)`,
    );
  }
  const generate = spec.generate as Fn;
  const score = spec.score as Fn;
  const name = typeof spec.name === 'string' ? spec.name : basename(file, extname(file));
  const sizes =
    Array.isArray(spec.sizes) && spec.sizes.every((n) => Number.isInteger(n))
      ? (spec.sizes as number[])
      : [1];
  const generator: TaskGenerator = {
    name,
    description: typeof spec.description === 'string' ? spec.description : `user task from ${file}`,
    sizeUnit: typeof spec.sizeUnit === 'string' ? spec.sizeUnit : 'size',
    defaultSize: sizes[0] ?? 1,
    generate(options = {}): TaskInstance {
      const size = options.size ?? sizes[0] ?? 1;
      const seed = options.seed ?? 0;
      const made = generate({ size, seed });
      if (!isRecord(made)) throw new EvalConfigError(`${file}: generate() must return an object`);
      const question = typeof made.question === 'string' ? made.question : spec.question;
      if (typeof question !== 'string' || question.trim() === '') {
        throw new EvalConfigError(
          `${file}: give a question, as a string export or in generate()'s result`,
        );
      }
      const truth = made.truth;
      return {
        task: name,
        size,
        seed,
        question,
        context: toContext(made.context, file),
        truth,
        score: (answer) => toScore(score(answer, truth), file),
      };
    },
  };
  return { generator, sizes, file };
}

/** Load every `.js` / `.mjs` task module in a folder, sorted by file name. */
export async function loadUserTasks(dir: string): Promise<UserTask[]> {
  const root = resolve(dir);
  let names: string[];
  try {
    names = (await readdir(root)).filter((n) => /\.(m?js)$/.test(n) && !n.startsWith('.')).sort();
  } catch {
    throw new EvalConfigError(
      `--tasks ${dir}: no such folder. Fix: point it at a folder of .js or .mjs task modules.`,
    );
  }
  if (names.length === 0) {
    throw new EvalConfigError(`--tasks ${dir}: no .js or .mjs task modules in it`);
  }
  const tasks: UserTask[] = [];
  for (const name of names) {
    const file = join(root, name);
    let module: unknown;
    try {
      module = await import(pathToFileURL(file).href);
    } catch (error) {
      throw new EvalConfigError(
        `${file}: could not be imported: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    tasks.push(adaptUserTask(module, file));
  }
  const seen = new Set<string>();
  for (const t of tasks) {
    if (seen.has(t.generator.name))
      throw new EvalConfigError(`two task modules are named "${t.generator.name}"`);
    seen.add(t.generator.name);
  }
  return tasks;
}
