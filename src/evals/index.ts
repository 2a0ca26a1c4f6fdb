/** Public API of the evaluation tools: task generators, scorers, and (later) bench and demo. */
export { contextStats, contextText, writeTaskContext } from './context-file.js';
export { EvalConfigError, TaskGenerationError } from './errors.js';
export { Prng } from './prng.js';
export type { GenerateOptions, Score, TaskContext, TaskGenerator, TaskInstance } from './task.js';
export { BUILTIN_TASKS, getTask } from './tasks/index.js';
export type { LongdocQuestion, LongdocTruth } from './tasks/longdoc-qa.js';
export type { NeedleTruth } from './tasks/needle.js';
export type { NestedTruth } from './tasks/nested.js';
export type { OolongTruth } from './tasks/oolong-lite.js';
