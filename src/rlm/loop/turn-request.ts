/**
 * A turn's root request: its messages brought under the context budget, the
 * role's request options, and the call under the run's clock (null when the
 * deadline passed, which ends the loop in a max_timeout finish).
 */
import { DeadlineError } from '../../errors.js';
import type { GenerateRequest, Message } from '../../lm/model.js';
import type { LoopRun } from './rlm-state.js';
import { roleBounds, roleOptions } from './role-call.js';
import { getTurnReply, type TurnReply } from './turn-reply.js';

/**
 * Brings the next root request under the budget (writing a `compaction`
 * record when anything was tried). Returns its messages, or null when it
 * cannot fit (after writing `context_overflow`'s estimate into the state).
 */
export async function fitRequest(run: LoopRun, turn: number): Promise<Message[] | null> {
  const { state, sandbox } = run;
  const protocol = state.protocol;
  const full = protocol.request(state.history, turn);
  // Every protocol sends the stored history followed by messages it never stores.
  const trailing = full.slice(state.history.length);
  const fitted = await state.keeper.fit(state.history, trailing, protocol.tools, turn, sandbox);
  if (fitted.record) run.emit({ type: 'compaction', ...fitted.record });
  state.history = fitted.messages;
  if (fitted.overflow) {
    state.overflowTokens = fitted.afterTokens;
    return null;
  }
  return fitted.beforeTokens === fitted.afterTokens ? full : protocol.request(state.history, turn);
}

/** The root request for `messages`, with the protocol's tools and the root role's options. */
export function rootRequest(run: LoopRun, messages: Message[]): GenerateRequest {
  const tools = run.state.protocol.tools;
  return {
    messages,
    ...(tools ? { tools } : {}),
    ...roleOptions(run.shared.settings.root),
  };
}

/** Asks the root model for the turn's reply; null when the run's time ran out first. */
export async function askRoot(run: LoopRun, request: GenerateRequest): Promise<TurnReply | null> {
  const { shared } = run;
  const s = shared.settings;
  try {
    return await getTurnReply(
      shared.o.models.root,
      request,
      roleBounds(shared, s.root),
      s.continueCutReplies,
    );
  } catch (error) {
    if (error instanceof DeadlineError || shared.timeLeft() <= 0) return null;
    throw error;
  }
}
