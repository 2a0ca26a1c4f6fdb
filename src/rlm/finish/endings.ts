/**
 * How a loop ends without an accepted finish: the limits checked before each
 * turn, the forced finish with its records, and the partial answer recovered
 * after a failure.
 */
import { EndpointError, KeyError } from '../../errors.js';
import type { StopReason } from '../../trace/events.js';
import type { ActiveRlm, Ending } from '../loop/rlm-state.js';
import type { RunTree } from '../run-tree.js';
import {
  type ForcedFinishInput,
  type ForcedFinishOutcome,
  type ForcedReason,
  forcedFinish,
} from './forced-finish.js';

/** A limit that ends the loop before the next turn, if one is reached. */
export function limitReached(tree: RunTree): ForcedReason | null {
  if (tree.aborted()) return 'aborted';
  if (tree.budgetExhausted) return 'token_budget';
  if (tree.timeLeft() <= 0) return 'max_timeout';
  return null;
}

/**
 * Ends the loop with a forced finish, writing its `forced_finish` record
 * (after a `context_overflow` record when the request could not fit, at `turn`).
 */
export async function finishForced(
  reason: ForcedReason,
  rlm: ActiveRlm,
  turn = 0,
): Promise<Ending> {
  const { tree, conversation, emit } = rlm;
  const keeper = conversation.keeper;
  const result = await forcedFinish(forcedInput(reason, rlm));
  if (result.completion) tree.addUsage('root', result.completion.usage);
  if (reason === 'context_overflow') {
    emit({
      type: 'context_overflow',
      turn,
      estimatedTokens: conversation.overflowTokens ?? 0,
      budgetTokens: keeper.budget.limitTokens,
      contextTokens: keeper.budget.contextTokens,
      maxTokens: keeper.budget.maxTokens,
      action:
        result.asked === 'none'
          ? 'no model call: even the opening messages do not fit; answered from the REPL values'
          : 'forced finish with only the opening messages and the REPL state',
    });
  }
  emit({
    type: 'forced_finish',
    reason,
    source: result.source,
    answer: result.answer,
    ...(result.variable !== undefined ? { variable: result.variable } : {}),
    ...(result.content !== undefined ? { content: result.content } : {}),
    ...(result.completion ? { usage: result.completion.usage } : {}),
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.tooLong ? { tooLong: result.tooLong } : {}),
  });
  const stopReason: StopReason = reason;
  return { answer: result.answer, stopReason, forced: pickForced(result) };
}

/**
 * Ends the loop after something unexpected (a dead sandbox, a model failure):
 * the answer is what the REPL holds, no model is asked and no record written.
 */
export async function finishFailed(error: unknown, rlm: ActiveRlm): Promise<Ending> {
  const partial = await forcedFinish(forcedInput('endpoint_error', rlm));
  return {
    answer: partial.answer,
    stopReason: rlm.tree.aborted()
      ? 'aborted'
      : isEndpointFailure(error)
        ? 'endpoint_error'
        : 'sandbox_error',
    forced: pickForced(partial),
    error,
  };
}

/** The forced finish of `run` for `reason` (a model is asked only for the turn-limit reasons). */
function forcedInput(reason: ForcedReason, rlm: ActiveRlm): ForcedFinishInput {
  const { tree, conversation } = rlm;
  const overflow = reason === 'context_overflow';
  const keeper = conversation.keeper;
  return {
    reason,
    query: rlm.task.query,
    // A request that could not be made to fit is retried with the opening messages only.
    history: overflow ? conversation.opening : conversation.history,
    ...(overflow ? {} : { fallbackHistory: conversation.opening }),
    fits: (messages, tools) => keeper.fits(messages, tools),
    sandbox: rlm.sandbox,
    lastOutput: conversation.lastOutput,
    askModel: reason !== 'token_budget' && reason !== 'aborted' && reason !== 'endpoint_error',
    model: tree.models.root,
    deadline: tree.deadline,
    now: tree.now,
    timeoutMs: tree.settings.root.timeoutMs,
    ...(tree.abortSignal ? { abortSignal: tree.abortSignal } : {}),
    ...(conversation.protocol.tools ? { finalTool: true } : {}),
  };
}

function pickForced(r: ForcedFinishOutcome): Pick<ForcedFinishOutcome, 'source' | 'variable'> {
  return r.variable !== undefined
    ? { source: r.source, variable: r.variable }
    : { source: r.source };
}

function isEndpointFailure(error: unknown): boolean {
  return error instanceof EndpointError || error instanceof KeyError;
}
