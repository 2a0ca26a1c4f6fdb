/**
 * One RLM of the run tree (the root at depth 0, or a child): start its REPL
 * and trajectory, open the conversation, run turns until a finish or a
 * limit, and write the `final` record. Each turn's work lives in turn.ts.
 */
import { estimatorFor } from '../../lm/tokens/index.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { type EventInput, TrajectoryWriter, trajectoryStem } from '../../trace/writer.js';
import { ContextKeeper, summaryPrompt } from '../context-budget/context-keeper.js';
import { MAX_ANSWER_CHARS } from '../finish/answer-limit.js';
import { finishFailed, finishForced, limitReached } from '../finish/endings.js';
import { createRootProtocol } from '../protocols/create-protocol.js';
import type { RunTree } from '../run-tree.js';
import { openConversation } from './opening.js';
import {
  type ActiveRlm,
  type Ending,
  newConversation,
  type RlmResult,
  type RlmTask,
} from './rlm-state.js';
import { startSandbox } from './start-sandbox.js';
import { createSubcallHost } from './subcall-host.js';
import { createHostCallHandler, type ExecPosition, summarySubcall } from './subcalls.js';
import { runTurn } from './turn.js';

/** Runs one RLM to its end. Only a failure to start (no sandbox, bad context) throws. */
export async function runRlm(tree: RunTree, task: RlmTask): Promise<RlmResult> {
  const { settings } = tree;
  const runId = tree.generateId();
  const writer = new TrajectoryWriter({
    dir: tree.logDir,
    stem: trajectoryStem(new Date(tree.now()), runId),
    now: () => new Date(tree.now()),
    sft: tree.sft && task.depth === 0,
    answerChars: MAX_ANSWER_CHARS,
  });
  const emit = (event: EventInput) => tree.event(writer.write(event), task.depth);
  const position: ExecPosition = { turn: 0, block: 0, inExec: 0 };
  // Loaded once per process and model family (cached), so only the first RLM waits.
  const estimator = await estimatorFor(tree.models.root.modelId);
  const protocol = createRootProtocol(settings, task.query);
  const keeper = new ContextKeeper({
    budget: settings.budget,
    estimator,
    summarize: (texts) => summarySubcall(host, summaryPrompt(task.query, texts)),
    now: tree.now,
  });
  const conversation = newConversation(protocol, keeper);
  let sandbox: Sandbox | undefined;
  const host = createSubcallHost({
    tree,
    task,
    conversation,
    position,
    emit,
    runId,
    trajectoryPath: writer.path,
    contextChars: () => sandbox?.contextShape.totalChars ?? 0,
    runRlm,
  });
  const onHostCall = createHostCallHandler(host);

  try {
    const started = task.started ?? startSandbox(task.context, settings, tree.python);
    started.bind(onHostCall);
    sandbox = await started.sandbox;
  } catch (error) {
    writer.close();
    throw error;
  }

  const rlm: ActiveRlm = { tree, task, conversation, sandbox, position, emit, writer };
  let ending: Ending | undefined;
  let turns = 0;
  try {
    await openConversation(rlm, runId, estimator);
    for (let turn = 1; turn <= settings.maxIterations && !ending; turn++) {
      const stop = limitReached(tree);
      if (stop) {
        ending = await finishForced(stop, rlm);
        break;
      }
      position.turn = turn;
      tree.status(task.depth, turn);
      const result = await runTurn(rlm, turn);
      turns = turn;
      if (result.kind === 'done') ending = result.ending;
    }
    // A run cancelled during its last turn says so, rather than "out of turns".
    if (!ending) ending = await finishForced(tree.aborted() ? 'aborted' : 'max_iterations', rlm);
  } catch (error) {
    // Anything unexpected (a dead sandbox, a model failure) ends the run with a partial answer.
    ending = await finishFailed(error, rlm);
  } finally {
    await sandbox.close().catch(() => {});
  }

  emit({
    type: 'final',
    answer: ending.answer,
    stopReason: ending.stopReason,
    turns,
    subcalls: tree.subcalls,
    usage: tree.usage,
    elapsedMs: tree.now() - tree.start,
    ...(task.depth === 0 ? { childTurns: tree.childTurns } : {}),
    stats: conversation.stats,
    ...(ending.error !== undefined ? { error: errorText(ending.error) } : {}),
  });
  writer.close();
  return {
    ...ending,
    runId,
    turns,
    trajectoryPath: writer.path,
    ...(writer.sftPath ? { sftPath: writer.sftPath } : {}),
    stats: conversation.stats,
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
