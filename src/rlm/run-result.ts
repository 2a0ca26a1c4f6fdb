/** What `run()` returns, and the error it throws when a failure stopped the run. */
import { ReclamoError } from '../errors.js';
import type { Usage } from '../lm/model.js';
import type { ForcedFinishSource, StopReason } from '../trace/events.js';
import type { RlmResult } from './loop/rlm-state.js';
import type { RunTree } from './run-tree.js';

export interface RunResult {
  /** The answer ('' when none could be produced). */
  answer: string;
  stopReason: StopReason;
  /** Root turns taken. */
  turns: number;
  /** Root turns taken inside child RLMs. */
  childTurns: number;
  /** Sub-calls in the whole run tree. */
  subcalls: number;
  usage: { root: Usage; sub: Usage };
  elapsedMs: number;
  runId: string;
  trajectoryPath: string;
  sftPath?: string;
  /** Where a forced finish found its answer, when the run ended in one. */
  forcedFinish?: { source: ForcedFinishSource; variable?: string };
}

/** The run stopped on a failure (an endpoint, the sandbox); `result` holds any partial answer. */
export class RunError extends ReclamoError {
  override readonly name: string = 'RunError';
  constructor(
    message: string,
    readonly result: RunResult,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The partial answer recovered from the REPL ('' when none). */
  get partialAnswer(): string {
    return this.result.answer;
  }
}

/**
 * The run's result from its root RLM's; a failure (endpoint, sandbox) throws
 * RunError carrying it, a cancelled run returns it.
 */
export function runResult(tree: RunTree, root: RlmResult): RunResult {
  const result: RunResult = {
    answer: root.answer,
    stopReason: root.stopReason,
    turns: root.turns,
    childTurns: tree.childTurns,
    subcalls: tree.subcalls,
    usage: tree.usage,
    elapsedMs: tree.now() - tree.start,
    runId: root.runId,
    trajectoryPath: root.trajectoryPath,
    ...(root.sftPath ? { sftPath: root.sftPath } : {}),
    ...(root.forced ? { forcedFinish: root.forced } : {}),
  };
  if (root.error !== undefined && root.stopReason !== 'aborted') {
    const cause = root.error;
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new RunError(`The run stopped: ${why}`, result, { cause });
  }
  return result;
}
