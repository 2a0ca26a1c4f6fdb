/**
 * A turn's request: its messages brought under the context budget, the
 * protocol's tools and the root role's options, and the call under the run's
 * clock. A request that cannot fit ends the loop in a context_overflow
 * finish; a deadline that passes first, in a max_timeout one.
 */
import { DeadlineError } from '../../errors.js';
import type { GenerateRequest, Message } from '../../lm/model.js';
import { finishForced } from '../finish/endings.js';
import type { ActiveRlm, Ending } from './rlm-state.js';
import { roleBounds, roleOptions } from './role-call.js';
import { getTurnReply, type TurnReply } from './turn-reply.js';

/** The turn's reply and the request it answers, or how the loop ended instead. */
export type Asked =
  | { kind: 'reply'; request: GenerateRequest; reply: TurnReply; modelMs: number }
  | { kind: 'ended'; ending: Ending };

/** Fits and sends turn `turn`'s request; the reply's usage is counted. */
export async function askTurn(rlm: ActiveRlm, turn: number): Promise<Asked> {
  const { tree } = rlm;
  const fitted = await fitRequest(rlm, turn);
  if (!fitted) return { kind: 'ended', ending: await finishForced('context_overflow', rlm, turn) };
  const request = rootRequest(rlm, fitted);
  const modelStart = tree.now();
  const reply = await askRoot(rlm, request);
  if (!reply) return { kind: 'ended', ending: await finishForced('max_timeout', rlm) };
  const modelMs = tree.now() - modelStart;
  tree.addUsage('root', reply.completion.usage);
  return { kind: 'reply', request, reply, modelMs };
}

/**
 * Brings the next root request under the budget (writing a `compaction`
 * record when anything was tried). Returns its messages, or null when it
 * cannot fit (after writing `context_overflow`'s estimate into the conversation).
 */
async function fitRequest(rlm: ActiveRlm, turn: number): Promise<Message[] | null> {
  const { conversation, sandbox } = rlm;
  const protocol = conversation.protocol;
  const history = conversation.history;
  const full = protocol.request(history, turn);
  // Every protocol sends the stored history followed by messages it never stores.
  const trailing = full.slice(history.length);
  const fitted = await conversation.keeper.fit(history, trailing, protocol.tools, turn, sandbox);
  if (fitted.record) rlm.emit({ type: 'compaction', ...fitted.record });
  conversation.history = fitted.messages;
  if (fitted.overflow) {
    conversation.overflowTokens = fitted.afterTokens;
    return null;
  }
  return fitted.beforeTokens === fitted.afterTokens
    ? full
    : protocol.request(conversation.history, turn);
}

/** The root request for `messages`, with the protocol's tools and the root role's options. */
function rootRequest(rlm: ActiveRlm, messages: Message[]): GenerateRequest {
  const tools = rlm.conversation.protocol.tools;
  return {
    messages,
    ...(tools ? { tools } : {}),
    ...roleOptions(rlm.tree.settings.root),
  };
}

/** Asks the root model for the turn's reply; null when the run's time ran out first. */
async function askRoot(rlm: ActiveRlm, request: GenerateRequest): Promise<TurnReply | null> {
  const { tree } = rlm;
  const { settings } = tree;
  try {
    return await getTurnReply(tree.models.root, request, {
      bounds: roleBounds(tree, settings.root),
      continueCutReplies: settings.continueCutReplies,
    });
  } catch (error) {
    if (error instanceof DeadlineError || tree.timeLeft() <= 0) return null;
    throw error;
  }
}
