/**
 * The scripted policies as one mock-server policy: requests for the root
 * model name go to the scripted root, requests for the sub model name to the
 * scripted reader. They exist to exercise and measure the harness offline,
 * not to show what a real model would score.
 */
import type { MockPolicy } from '../../testing/mock-policy.js';
import { createRootPolicy, type RootPolicyOptions } from './root-policy.js';
import { createSubPolicy } from './sub-policy.js';

/** Model names the scripted profile gives its two roles. */
export const SCRIPTED_ROOT_MODEL = 'scripted-root';
export const SCRIPTED_SUB_MODEL = 'scripted-sub';

export type ScriptedPolicyOptions = RootPolicyOptions;

/** One policy serving both roles, routed by the request's model name. */
export function createScriptedPolicy(options: ScriptedPolicyOptions = {}): MockPolicy {
  const root = createRootPolicy(options);
  const sub = createSubPolicy(options);
  return (request) => (request.model === SCRIPTED_SUB_MODEL ? sub(request) : root(request));
}
