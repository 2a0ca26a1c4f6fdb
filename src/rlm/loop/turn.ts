/**
 * One root turn: fit and send the request, read the reply through the
 * protocol, run its code, judge its finish, close the turn into the history,
 * write its `iteration` record, and say whether the loop goes on.
 */

import { finishForced } from '../finish/endings.js';
import { finishTurn } from '../finish/turn-finish.js';
import { turnLine } from '../prompts/messages.js';
import { runBlocks } from './blocks.js';
import { iterationEvent } from './iteration-record.js';
import type { LoopEnding, LoopRun } from './rlm-state.js';
import { askRoot, fitRequest, rootRequest } from './turn-request.js';

/** Whether the loop goes on after a turn, or how it ended. */
export type TurnResult = { kind: 'continue' } | { kind: 'done'; outcome: LoopEnding };

/** Runs turn `turn` of `run`; a loop-ending result carries the outcome. */
export async function runTurn(run: LoopRun, turn: number): Promise<TurnResult> {
  const { shared, state, sandbox } = run;
  const o = shared.o;
  const s = shared.settings;
  const turnStart = o.now();
  const protocol = state.protocol;
  const fitted = await fitRequest(run, turn);
  if (!fitted) return done(await finishForced('context_overflow', run, turn));
  const request = rootRequest(run, fitted);
  const modelStart = o.now();
  const reply = await askRoot(run, request);
  if (!reply) return done(await finishForced('max_timeout', run));
  const modelMs = o.now() - modelStart;
  shared.addUsage('root', reply.completion.usage);
  run.writer.writeSft(request.messages, reply.content);

  const content = reply.content;
  const parsed = protocol.parse(content, reply.completion.toolCalls, turn);
  const cut = reply.completion.finishReason === 'length' && reply.cut === undefined;
  const blocks = cut ? parsed.blocks.filter((b) => b.complete) : parsed.blocks;
  state.stats.protocolSlips += parsed.slips;
  state.stats.rejectedFinals += parsed.rejectedFinals;

  const hadCode = blocks.length > 0;
  const replStart = o.now();
  const ran = await runBlocks(run, blocks);
  const replMs = hadCode ? o.now() - replStart : 0;

  const { decision, finalNudge, nudges } = await finishTurn(run, parsed, hadCode, ran.errorLimit);
  const accepted = decision?.accepted === true;
  const turnMessages = protocol.closeTurn({
    content,
    parsed,
    outputs: ran.outputs,
    decision,
    finalNudge,
    nudges,
    nextTurnLine: turnLine(turn + 1, s.maxIterations),
  });
  state.history.push(...turnMessages);
  state.keeper.addTurn(turnMessages, turn, ran.shownOutputs);
  await state.keeper.syncHistory(sandbox, ran.restarted);

  const harnessMs = o.now() - turnStart - modelMs - replMs;
  run.emit(
    iterationEvent({
      turn,
      content,
      reply,
      parsed,
      blocks: ran.records,
      nudges,
      decision,
      timings: { modelMs, replMs, harnessMs },
    }),
  );

  if (accepted && decision) {
    return done({
      answer: decision.answer ?? '',
      stopReason: decision.kind === 'answer_dict' ? 'answer_dict' : 'final',
    });
  }
  if (ran.errorLimit) return done(await finishForced('error_limit', run));
  return { kind: 'continue' };
}

function done(outcome: LoopEnding): TurnResult {
  return { kind: 'done', outcome };
}
