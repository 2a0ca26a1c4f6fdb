/**
 * A role's side of a model request: its options (output cap, thinking,
 * sampling, reasoning effort) and the bounds of its call under the run's clock.
 */
import type { GenerateRequest } from '../../lm/model.js';
import type { RunTree } from '../run-tree.js';
import type { RoleRuntime } from '../settings.js';
import type { CallBounds } from './model-call.js';

export type RoleOptions = Pick<
  GenerateRequest,
  'maxTokens' | 'thinking' | 'sampling' | 'reasoningEffort'
>;

/** The request options a role's settings give every request it sends. */
export function roleOptions(role: RoleRuntime): RoleOptions {
  return {
    maxTokens: role.maxTokens,
    ...(role.thinking !== undefined ? { thinking: role.thinking } : {}),
    ...(role.sampling ? { sampling: role.sampling } : {}),
    ...(role.reasoningEffort ? { reasoningEffort: role.reasoningEffort } : {}),
  };
}

/** A role's call bounds: the run's deadline and clock, the role's timeout, the run's cancel signal. */
export function roleBounds(tree: RunTree, role: RoleRuntime): CallBounds {
  return {
    deadline: tree.deadline,
    now: tree.now,
    timeoutMs: role.timeoutMs,
    ...(tree.abortSignal ? { abortSignal: tree.abortSignal } : {}),
  };
}
