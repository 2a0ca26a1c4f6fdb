/**
 * Policies: how a task is split and how the parts are put back together.
 * `decompose` returns subtasks (run as a map one depth level down) or null
 * to answer the task in one frame; `synthesize` composes the value from the
 * subtasks' results. Without `synthesize`, one more frame does it, with the
 * results (failures included) as its views.
 */
import type { Budget } from '../budget.js';
import type { ContractInput } from '../contract.js';
import type { MapResult, MapTask } from '../on-tree.js';
import type { View } from '../views.js';

/** The task a policy is given. */
export interface PolicyTask {
  task: string;
  views: readonly View[];
}

/** What a policy's functions may use: frames in the policy's budget subtree. */
export interface PolicyContext {
  /** The caller's contract, which the final value must meet. */
  contract: ContractInput;
  /** The budget node of the policy run. */
  budget: Budget;
  /** One more frame at the policy's level; rejects like `infer` (PartialResultError when incomplete). */
  infer(
    task: string,
    options?: { views?: readonly View[]; contract?: ContractInput },
  ): Promise<unknown>;
  /** A fan-out at the policy's level; results in task order, as `map` gives them. */
  map(
    tasks: readonly MapTask[],
    options?: { contract?: ContractInput; concurrency?: number },
  ): Promise<MapResult[]>;
}

/** A named decomposition and synthesis strategy. */
export interface Policy {
  /** Letters, digits, `-` and `_`, starting with a letter. */
  name: string;
  /** One line on what it does (listed by the registry). */
  description?: string;
  /** Subtasks for `task`, or null to answer it directly in one frame. */
  decompose(
    task: PolicyTask,
    context: PolicyContext,
  ): readonly MapTask[] | null | Promise<readonly MapTask[] | null>;
  /** The value from the subtasks' results; default: one frame whose views are the results. */
  synthesize?(
    task: PolicyTask,
    results: readonly MapResult[],
    context: PolicyContext,
  ): Promise<unknown>;
}

/** The built-in policy that never decomposes. */
export const directPolicy: Policy = {
  name: 'direct',
  description: 'Answer the task in one frame; never decomposes.',
  decompose: () => null,
};
