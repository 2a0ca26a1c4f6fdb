/** The inference layer: infer, map, policies, budgets, views, contracts, traces. */
export {
  type Budget,
  type BudgetAllowance,
  type BudgetLimits,
  type BudgetRemaining,
  createBudget,
  type LedgerEntry,
  type PoolTotals,
  type Reservation,
  type ReserveResult,
  type Settlement,
  type SubtreeSpend,
  type TrancheRule,
} from './budget.js';
export {
  type BudgetedCompletion,
  type BudgetedRequestHooks,
  generateWithBudget,
} from './budgeted-request.js';
export type { ContractInput, ContractValue, JsonSchema } from './contract.js';
export {
  BudgetExhaustedError,
  ContractError,
  InferenceError,
  PartialResultError,
  TraceNotFoundError,
  ViewError,
} from './errors.js';
export type { InferEvent, InferEventListener } from './events.js';
export type { FrameResult } from './frame.js';
export { type InferOptions, infer, inferTraced } from './infer.js';
export { type MapOptions, map } from './map.js';
export type { ModelChoice } from './model-route.js';
export type { IncompleteObservation, RecentOutput } from './observation.js';
export type { Capabilities, MapResult, MapTask, Traced } from './on-tree.js';
export { DEFAULT_BUDGET, type TreeOptions } from './options.js';
export type { Policy, PolicyContext, PolicyTask } from './policy/policy.js';
export { PolicyRegistry, registerPolicy } from './policy/registry.js';
export { type RunPolicyOptions, runPolicy, runPolicyTraced } from './policy/run.js';
export type * from './trace/events.js';
export { INFERENCE_TRACE_SCHEMA_VERSION } from './trace/events.js';
export { type FormatTraceOptions, formatTrace } from './trace/format.js';
export { type InferenceTrace, readTrace } from './trace/read.js';
export type { View, ViewRecord } from './views.js';
