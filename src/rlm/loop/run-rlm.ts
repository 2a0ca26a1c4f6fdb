/**
 * One RLM's turn loop (the root at depth 0, or a child): start its REPL and
 * trajectory, open the history, run turns until a finish or a limit, and
 * write the `final` record. Each turn's work lives in turn.ts.
 */
import { estimatorFor } from '../../lm/tokens/index.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { type EventInput, TrajectoryWriter, trajectoryStem } from '../../trace/writer.js';
import { ContextKeeper, summaryPrompt } from '../context-budget/context-keeper.js';
import { MAX_ANSWER_CHARS } from '../finish/answer-limit.js';
import { finishFailed, finishForced, limitReached } from '../finish/endings.js';
import { createRootProtocol } from '../protocols/create-protocol.js';
import type { RunShared } from '../run-tree.js';
import { openLoop } from './opening.js';
import {
  type LoopEnding,
  type LoopInput,
  type LoopOutcome,
  type LoopRun,
  newLoopState,
} from './rlm-state.js';
import { startSandbox } from './start-sandbox.js';
import { createLoopHost } from './subcall-host.js';
import { createHostCallHandler, type ExecPosition, summarySubcall } from './subcalls.js';
import { runTurn } from './turn.js';

export type { LoopInput, LoopOutcome } from './rlm-state.js';

/** Runs one RLM to its end. Only a failure to start (no sandbox, bad context) throws. */
export async function runLoop(shared: RunShared, input: LoopInput): Promise<LoopOutcome> {
  const o = shared.o;
  const s = shared.settings;
  const runId = o.generateId();
  const writer = new TrajectoryWriter({
    dir: o.logDir,
    stem: trajectoryStem(new Date(o.now()), runId),
    now: () => new Date(o.now()),
    sft: o.sft && input.depth === 0,
    answerChars: MAX_ANSWER_CHARS,
  });
  const emit = (event: EventInput) => {
    const written = writer.write(event);
    o.onEvent?.(written, input.depth);
  };
  const position: ExecPosition = { turn: 0, block: 0, inExec: 0 };
  // Loaded once per process and model family (cached), so only the first RLM waits.
  const estimator = await estimatorFor(o.models.root.modelId);
  const protocol = createRootProtocol(s, input.query);
  const keeper = new ContextKeeper({
    budget: s.budget,
    estimator,
    summarize: (texts) => summarySubcall(host, summaryPrompt(input.query, texts)),
    now: o.now,
  });
  const state = newLoopState(protocol, keeper);
  let sandbox: Sandbox | undefined;
  const host = createLoopHost({
    shared,
    input,
    state,
    position,
    emit,
    runId,
    trajectoryPath: writer.path,
    contextChars: () => sandbox?.contextShape.totalChars ?? 0,
    runLoop,
  });
  const onHostCall = createHostCallHandler(host);

  try {
    const started = input.started ?? startSandbox(input.context, s, o.python);
    started.bind(onHostCall);
    sandbox = await started.sandbox;
  } catch (error) {
    writer.close();
    throw error;
  }

  const run: LoopRun = { shared, input, state, sandbox, position, emit, writer };
  let outcome: LoopEnding | undefined;
  let turns = 0;
  try {
    await openLoop(run, runId, estimator);
    for (let turn = 1; turn <= s.maxIterations && !outcome; turn++) {
      const stop = limitReached(shared);
      if (stop) {
        outcome = await finishForced(stop, run);
        break;
      }
      position.turn = turn;
      shared.status(input.depth, turn);
      const result = await runTurn(run, turn);
      turns = turn;
      if (result.kind === 'done') outcome = result.outcome;
    }
    // A run cancelled during its last turn says so, rather than "out of turns".
    if (!outcome)
      outcome = await finishForced(shared.aborted() ? 'aborted' : 'max_iterations', run);
  } catch (error) {
    // Anything unexpected (a dead sandbox, a model failure) ends the run with a partial answer.
    outcome = await finishFailed(error, run);
  } finally {
    await sandbox.close().catch(() => {});
  }

  emit({
    type: 'final',
    answer: outcome.answer,
    stopReason: outcome.stopReason,
    turns,
    subcalls: shared.subcalls,
    usage: shared.usage,
    elapsedMs: o.now() - shared.start,
    ...(input.depth === 0 ? { childTurns: shared.childTurns } : {}),
    stats: state.stats,
    ...(outcome.error !== undefined ? { error: errorText(outcome.error) } : {}),
  });
  writer.close();
  return {
    ...outcome,
    runId,
    turns,
    trajectoryPath: writer.path,
    ...(writer.sftPath ? { sftPath: writer.sftPath } : {}),
    stats: state.stats,
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
