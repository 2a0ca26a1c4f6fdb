/** Public API of the evaluation tools: task generators, scripted policies, bench, eval and demo. */
export { type BenchOptions, type BenchResult, runBench } from './bench/bench.js';
export { DEFAULT_BENCH_SIZES, parseSizeSpecs } from './bench/grid.js';
export { plainPromptTokens, plainThinking } from './bench/plain-row.js';
export { type RlmRowInput, type RlmRowRunner, runRlmRow } from './bench/rlm-row.js';
export { BENCH_MODES, type BenchMode, type BenchRow, rowKey } from './bench/row.js';
export { type RowFile, readRowFile, writeRowFile } from './bench/row-file.js';
export { resultOverSeeds, summarizeRows } from './bench/summary.js';
export { contextStats, contextText, writeTaskContext } from './context-file.js';
export {
  DEMO_CAVEAT,
  type DemoOptions,
  type DemoResult,
  type DemoRow,
  formatDemoTable,
  runDemo,
} from './demo.js';
export { EvalConfigError, TaskGenerationError } from './errors.js';
export {
  SCRIPTED_CONTEXT_TOKENS,
  SCRIPTED_PROFILE,
  type ScriptedBackend,
  type ScriptedBackendOptions,
  startScriptedBackend,
} from './offline.js';
export { plainMessages } from './plain-prompt.js';
export { createRootPolicy, type RootPolicyOptions } from './policies/root-policy.js';
export {
  createScriptedPolicy,
  SCRIPTED_ROOT_MODEL,
  SCRIPTED_SUB_MODEL,
  type ScriptedPolicyOptions,
} from './policies/scripted.js';
export { createSubPolicy } from './policies/sub-policy.js';
export { Prng } from './prng.js';
export type { GenerateOptions, Score, TaskContext, TaskGenerator, TaskInstance } from './task.js';
export { BUILTIN_TASKS, getTask } from './tasks/index.js';
export type { LongdocQuestion, LongdocTruth } from './tasks/longdoc-qa.js';
export type { NeedleTruth } from './tasks/needle.js';
export type { NestedTruth } from './tasks/nested.js';
export type { OolongTruth } from './tasks/oolong-lite.js';
export { estimateTokens } from './tokens.js';
export { adaptUserTask, loadUserTasks, type UserTask } from './user-tasks.js';
