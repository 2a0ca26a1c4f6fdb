/** The inference layer: infer, map, policies, budgets, views, contracts, traces. */
export {
  type Budget,
  type BudgetAllowance,
  type BudgetLimits,
  type BudgetRemaining,
  billableTokens,
  createBudget,
  DEFAULT_TRANCHE,
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
export {
  type Capabilities,
  type InferOptions,
  infer,
  inferTraced,
  type Traced,
} from './infer.js';
export type { ModelChoice } from './model-route.js';
export type { IncompleteObservation, RecentOutput } from './observation.js';
export { DEFAULT_BUDGET, type TreeOptions } from './options.js';
export type * from './trace/events.js';
export { INFERENCE_TRACE_SCHEMA_VERSION } from './trace/events.js';
export { DEFAULT_MAX_VIEW_BYTES, type View, type ViewRecord } from './views.js';
