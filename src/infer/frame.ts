/**
 * One inference frame: a private conversation over its views, under a
 * contract and a budget node. It asks, checks the answer against the
 * contract, re-asks with the problems when it does not fit, runs tool rounds
 * when it may read, and ends with a value, an incomplete observation (budget
 * gone) or an error. Everything it saw and said goes to its trace.
 */

import { emptyUsage } from '../lm/model.js';
import { TRACE_FIELD_CHARS } from '../trace/bounded-fields.js';
import { checkAnswer } from './answer.js';
import { BudgetExhaustedError, InferenceError } from './errors.js';
import { ask } from './frame-request.js';
import { toolRound } from './frame-tools.js';
import {
  type Conversation,
  type FrameResult,
  type FrameSpec,
  type FrameState,
  link,
  type ToolsFactory,
} from './frame-types.js';
import { type IncompleteObservation, incompleteObservation, RecentOutputs } from './observation.js';
import { FINAL_REQUEST_NOTE, frameMessages, repairMessage } from './prompt.js';
import { TraceWriter } from './trace/writer.js';
import type { InferenceTree } from './tree.js';
import { materializeViews, viewRecord } from './views.js';

export type {
  FrameResult,
  FrameSpec,
  FrameTools,
  ToolOutcome,
  ToolsFactory,
} from './frame-types.js';

/** Room beside the views in a traced request (prompt text, repairs, tool results). */
const REQUEST_SLACK_CHARS = 1_000_000;

/**
 * Runs one frame. Views are read first: a ViewError (unreadable, too large)
 * rejects before anything is written or sent. Budget exhaustion and model
 * failures resolve as `incomplete` and `error` results, with the trace closed.
 */
export async function runFrame(
  tree: InferenceTree,
  spec: FrameSpec,
  toolsFactory?: ToolsFactory,
): Promise<FrameResult> {
  const { settings } = tree;
  const views = await materializeViews(spec.views, settings.maxViewBytes);
  const traceId = settings.generateId();
  const budget = tree.budget.branch();
  const viewChars = views.reduce((sum, view) => sum + view.content.length, 0);
  const writer = new TraceWriter(
    settings.logDir,
    traceId,
    settings.now,
    Math.max(TRACE_FIELD_CHARS, viewChars + REQUEST_SLACK_CHARS),
  );
  const started = settings.clock();
  const link = tree.parentId === undefined ? {} : { parentId: tree.parentId };
  const tools = spec.read && toolsFactory ? toolsFactory({ traceId, budget, tree }) : undefined;
  const state: FrameState = {
    requests: 0,
    rounds: 0,
    usage: emptyUsage(),
    recent: new RecentOutputs(),
    recorded: 0,
  };
  writer.write({
    type: 'frame',
    traceId,
    ...link,
    origin: spec.origin,
    task: spec.task,
    views: views.map(viewRecord),
    contract:
      spec.contract.kind === 'schema'
        ? { kind: 'schema', schema: spec.contract.schema ?? true }
        : { kind: 'text' },
    model: { id: settings.model.modelId, endpoint: settings.model.endpoint },
    parameters: {
      ...(settings.effort === undefined ? {} : { effort: settings.effort }),
      capabilities: tools ? 'read' : 'none',
      ...(tools ? { maxToolRounds: settings.maxToolRounds, readRoots: settings.readRoots } : {}),
    },
    budget: budget.remaining(),
  });
  tree.emit({
    type: 'frame_start',
    traceId,
    ...link,
    elapsedMs: tree.elapsedMs(),
    depth: budget.depth,
    origin: spec.origin,
    budget: budget.remaining(),
  });

  const end = (
    status: 'ok' | 'incomplete' | 'error',
    detail: { value?: unknown; observation?: IncompleteObservation; error?: Error },
  ): void => {
    writer.write({
      type: 'outcome',
      status,
      ...('value' in detail ? { value: detail.value } : {}),
      ...(detail.observation ? { observation: detail.observation } : {}),
      ...(detail.error
        ? { error: { name: detail.error.name, message: detail.error.message } }
        : {}),
      requests: state.requests,
      usage: state.usage,
      spent: budget.spent(),
      budget: budget.remaining(),
      elapsedMs: Math.round(settings.clock() - started),
    });
    tree.emit({
      type: 'frame_end',
      traceId,
      ...link,
      elapsedMs: tree.elapsedMs(),
      status,
      requests: state.requests,
      budget: budget.remaining(),
    });
  };

  const messages = frameMessages(spec.task, views, spec.contract, tools !== undefined);
  try {
    const value = await converse({ tree, spec, budget, writer, traceId, state, messages, tools });
    end('ok', { value });
    return { status: 'ok', value, traceId };
  } catch (error) {
    if (BudgetExhaustedError.isInstance(error)) {
      const observation = incompleteObservation(
        error.exhausted,
        budget.remaining(),
        traceId,
        state.recent,
      );
      end('incomplete', { observation });
      return { status: 'incomplete', observation };
    }
    const failure = error instanceof Error ? error : new Error(String(error));
    end('error', { error: failure });
    return { status: 'error', error: failure, traceId };
  } finally {
    await writer.close();
  }
}

/** The request loop: returns the accepted value or throws (budget, protocol, endpoint). */
async function converse(c: Conversation): Promise<unknown> {
  const { spec, messages, tools, state } = c;
  const maxRounds = c.tree.settings.maxToolRounds;
  let finalNoteSent = false;
  for (;;) {
    const last =
      tools !== undefined && (state.rounds >= maxRounds || c.budget.remaining().calls <= 1);
    if (last && !finalNoteSent) {
      messages.push({ role: 'user', content: FINAL_REQUEST_NOTE });
      finalNoteSent = true;
    }
    const completion = await ask(c, last);
    if (completion.toolCalls.length > 0) {
      if (last) {
        throw new InferenceError({
          message: `Inference ${c.traceId} failed: the model called ${completion.toolCalls.map((call) => call.name).join(', ')} on its last request, where tool calls were disabled. Read inference:${c.traceId} for the exchange; a model that follows tool_choice "none" avoids this.`,
          traceId: c.traceId,
        });
      }
      if (tools) {
        await toolRound(c, tools, completion);
        continue;
      }
    }
    const problems =
      completion.toolCalls.length > 0
        ? ['this frame has no tools: answer directly, without calling a function']
        : undefined;
    const check = problems
      ? ({ ok: false, problems } as const)
      : checkAnswer(completion.content, spec.contract, completion.finishReason === 'length');
    if (check.ok) return check.value;
    messages.push({ role: 'assistant', content: completion.content });
    messages.push({ role: 'user', content: repairMessage(check.problems, spec.contract) });
    c.writer.write({ type: 'repair', index: state.requests - 1, problems: check.problems });
    c.tree.emit({
      type: 'repair',
      traceId: c.traceId,
      ...link(c.tree),
      elapsedMs: c.tree.elapsedMs(),
      request: state.requests - 1,
      problems: check.problems.length,
    });
  }
}
