/**
 * One root turn, in phases: ask (fit and send the request), act (read the
 * reply through the protocol and run its code), judge (the finish and the
 * nudges), close (append the turn to the history, write its `iteration`
 * record), and say whether the loop goes on.
 */
import { finishForced } from '../finish/endings.js';
import { finishTurn, type TurnFinish } from '../finish/turn-finish.js';
import { turnLine } from '../prompts/messages.js';
import type { ParsedTurn } from '../protocols/protocol.js';
import { type BlocksRun, runBlocks } from './blocks.js';
import { iterationEvent } from './iteration-record.js';
import type { ActiveRlm, Ending } from './rlm-state.js';
import type { TurnReply } from './turn-reply.js';
import { askTurn } from './turn-request.js';

/** Whether the loop goes on after a turn, or how it ended. */
export type TurnResult = { kind: 'continue' } | { kind: 'done'; ending: Ending };

/** Runs turn `turn` of `rlm`; a loop-ending result carries the ending. */
export async function runTurn(rlm: ActiveRlm, turn: number): Promise<TurnResult> {
  const { tree } = rlm;
  const turnStart = tree.now();
  const asked = await askTurn(rlm, turn);
  if (asked.kind === 'ended') return done(asked.ending);
  const { request, reply, modelMs } = asked;
  rlm.writer.writeSft(request.messages, reply.content);

  const acted = await act(rlm, reply, turn);
  const judged = await finishTurn(rlm, {
    parsed: acted.parsed,
    hadCode: acted.hadCode,
    errorLimit: acted.ran.errorLimit,
  });
  await close(rlm, turn, reply.content, acted, judged);

  const harnessMs = tree.now() - turnStart - modelMs - acted.replMs;
  rlm.emit(
    iterationEvent({
      turn,
      content: reply.content,
      reply,
      parsed: acted.parsed,
      blocks: acted.ran.records,
      nudges: judged.nudges,
      decision: judged.decision,
      timings: { modelMs, replMs: acted.replMs, harnessMs },
    }),
  );

  const { decision } = judged;
  if (decision?.accepted) {
    return done({
      answer: decision.answer ?? '',
      stopReason: decision.kind === 'answer_dict' ? 'answer_dict' : 'final',
    });
  }
  if (acted.ran.errorLimit) return done(await finishForced('error_limit', rlm));
  return { kind: 'continue' };
}

/** What acting on a reply did: how the protocol read it, and the code it ran. */
interface Acted {
  parsed: ParsedTurn;
  ran: BlocksRun;
  hadCode: boolean;
  replMs: number;
}

/** Reads the reply through the protocol and runs its code (only whole blocks of a cut reply). */
async function act(rlm: ActiveRlm, reply: TurnReply, turn: number): Promise<Acted> {
  const { tree, conversation } = rlm;
  const parsed = conversation.protocol.parse(reply.content, reply.completion.toolCalls, turn);
  const cut = reply.completion.finishReason === 'length' && reply.cut === undefined;
  const blocks = cut ? parsed.blocks.filter((b) => b.complete) : parsed.blocks;
  conversation.stats.protocolSlips += parsed.slips;
  conversation.stats.rejectedFinals += parsed.rejectedFinals;
  const hadCode = blocks.length > 0;
  const replStart = tree.now();
  const ran = await runBlocks(rlm, blocks);
  return { parsed, ran, hadCode, replMs: hadCode ? tree.now() - replStart : 0 };
}

/** Appends the turn to the history (as the protocol lays it out) and to the REPL's `history`. */
async function close(
  rlm: ActiveRlm,
  turn: number,
  content: string,
  acted: Acted,
  judged: TurnFinish,
): Promise<void> {
  const { conversation, sandbox } = rlm;
  const messages = conversation.protocol.closeTurn({
    content,
    parsed: acted.parsed,
    outputs: acted.ran.outputs,
    decision: judged.decision,
    finalNudge: judged.finalNudge,
    nudges: judged.nudges,
    nextTurnLine: turnLine(turn + 1, rlm.tree.settings.maxIterations),
  });
  conversation.history.push(...messages);
  conversation.keeper.addTurn(messages, turn, acted.ran.shownOutputs);
  await conversation.keeper.syncHistory(sandbox, { rebind: acted.ran.restarted });
}

function done(ending: Ending): TurnResult {
  return { kind: 'done', ending };
}
