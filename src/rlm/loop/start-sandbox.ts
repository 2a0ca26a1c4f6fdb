/**
 * Starting an RLM's REPL before its host-call handler exists, so the root's
 * worker can load the context while the model layer is still being set up.
 */
import { createPythonSandbox } from '../../sandbox/index.js';
import type { ContextSource, HostCallHandler, Sandbox } from '../../sandbox/sandbox.js';
import type { ResolvedSettings } from '../settings.js';

export interface StartedSandbox {
  sandbox: Promise<Sandbox>;
  /** Routes the worker's host calls to `handler` (calls before this fail). */
  bind(handler: HostCallHandler): void;
}

export function startSandbox(
  context: ContextSource,
  settings: ResolvedSettings,
  python: string | undefined,
): StartedSandbox {
  let handler: HostCallHandler | undefined;
  const sandbox = createPythonSandbox({
    context,
    onHostCall: (call) =>
      handler ? handler(call) : Promise.reject(new Error('the run is not ready for sub-calls yet')),
    execTimeoutMs: settings.execTimeoutMs,
    // One allowance for every worker of the run: a child RLM's REPL gets the same headroom.
    memoryHeadroomBytes: settings.memoryHeadroomBytes,
    // The loop enforces the sub-call caps itself (with clear messages); the
    // sandbox's own caps are a backstop and must be at least 1.
    maxHostCallsPerExec: Math.max(1, settings.maxSubcallsPerExec),
    maxHostCallsPerRun: Math.max(1, settings.maxSubcallsPerRun),
    ...(python !== undefined ? { python } : {}),
    // The upstream layout has no answer dict: `answer = llm_query(...)` is an ordinary variable.
    answerDict: settings.plannerStyle !== 'upstream-rlm-v0',
  });
  // Awaited later by the loop; this only keeps an early failure from being "unhandled".
  sandbox.catch(() => {});
  return { sandbox, bind: (h) => (handler = h) };
}
