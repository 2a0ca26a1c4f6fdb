/** One rlm row: the task through the real harness, `run()`, with its trajectory written. */
import type { ResolvedProfile } from '../../config/types.js';
import { RunError, type RunResult, run } from '../../rlm/run.js';
import type { RunOverrides } from '../../rlm/settings.js';
import type { ContextSource } from '../../sandbox/sandbox.js';
import type { TaskInstance } from '../task.js';
import type { BenchRow } from './row.js';

export interface RlmRowInput {
  profile: ResolvedProfile;
  instance: TaskInstance;
  /** Where the context was written. */
  context: ContextSource;
  /** Trajectory directory. */
  logDir: string;
  overrides?: RunOverrides;
}

export type RlmOutcome = Pick<
  BenchRow,
  | 'status'
  | 'answer'
  | 'turns'
  | 'subcalls'
  | 'tokens'
  | 'seconds'
  | 'stopReason'
  | 'trajectory'
  | 'error'
>;

export type RlmRowRunner = (input: RlmRowInput) => Promise<RlmOutcome>;

function outcome(result: RunResult): RlmOutcome {
  const { root, sub } = result.usage;
  return {
    status: 'ok',
    answer: result.answer,
    turns: result.turns,
    subcalls: result.subcalls,
    tokens: root.inputTokens + root.outputTokens + sub.inputTokens + sub.outputTokens,
    seconds: result.elapsedMs / 1000,
    stopReason: result.stopReason,
    trajectory: result.trajectoryPath,
  };
}

/** Run the instance through `run()`; an endpoint or sandbox failure becomes an `error` row. */
export const runRlmRow: RlmRowRunner = async (input) => {
  try {
    return outcome(
      await run({
        ...input.overrides,
        query: input.instance.question,
        context: input.context,
        profile: input.profile,
        logDir: input.logDir,
      }),
    );
  } catch (error) {
    if (error instanceof RunError) {
      return { ...outcome(error.result), status: 'error', error: error.message };
    }
    throw error;
  }
};
