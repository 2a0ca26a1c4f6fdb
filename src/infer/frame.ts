/**
 * One inference frame: a private conversation over its views, under a
 * contract and a budget node. It asks, checks the answer against the
 * contract, re-asks with the problems when it does not fit, runs tool rounds
 * when it may read, and ends with a value, an incomplete observation (budget
 * gone) or an error. Everything it saw and said goes to its trace.
 */

import type { ToolCall } from '../lm/model.js';
import {
  addUsage,
  type Completion,
  emptyUsage,
  type GenerateRequest,
  type Message,
  type ToolSpec,
} from '../lm/model.js';
import { TRACE_FIELD_CHARS } from '../trace/bounded-fields.js';
import { checkAnswer } from './answer.js';
import type { Budget } from './budget.js';
import { generateWithBudget } from './budgeted-request.js';
import type { Contract } from './contract.js';
import { BudgetExhaustedError, InferenceError } from './errors.js';
import { type IncompleteObservation, incompleteObservation, RecentOutputs } from './observation.js';
import { FINAL_REQUEST_NOTE, frameMessages, repairMessage } from './prompt.js';
import { TraceWriter } from './trace/writer.js';
import type { InferenceTree } from './tree.js';
import { materializeViews, type View, viewRecord } from './views.js';

/** What a frame is asked. */
export interface FrameSpec {
  task: string;
  views: readonly View[];
  contract: Contract;
  /** The frame may use the read tools. */
  read: boolean;
  /** What started it, for the trace (`infer`, `map`, `tool:infer`, ...). */
  origin: string;
}

/** How a frame ended. */
export type FrameResult<T = unknown> =
  | { status: 'ok'; value: T; traceId: string }
  | { status: 'incomplete'; observation: IncompleteObservation }
  | { status: 'error'; error: Error; traceId?: string };

/** A tool call's result as the model will see it. */
export interface ToolOutcome {
  ok: boolean;
  result: string;
  /** Frames the call started. */
  childIds?: string[];
}

/** Tools of one frame. */
export interface FrameTools {
  specs: ToolSpec[];
  run(call: ToolCall): Promise<ToolOutcome>;
}

/** Makes a frame's tools once its id and budget node are known. */
export type ToolsFactory = (frame: {
  traceId: string;
  budget: Budget;
  tree: InferenceTree;
}) => FrameTools;

/** Most tool calls carried out in one round; the rest get an error result. */
export const MAX_CALLS_PER_ROUND = 8;
/** Most characters of a tool result shown to the model. */
export const MAX_TOOL_RESULT_CHARS = 20_000;
const RECEIVING_EVERY_MS = 1_000;
/** Room beside the views in a traced request (prompt text, repairs, tool results). */
const REQUEST_SLACK_CHARS = 1_000_000;

interface FrameState {
  requests: number;
  rounds: number;
  usage: ReturnType<typeof emptyUsage>;
  recent: RecentOutputs;
  /** Messages already written to the trace. */
  recorded: number;
}

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

interface Conversation {
  tree: InferenceTree;
  spec: FrameSpec;
  budget: Budget;
  writer: TraceWriter;
  traceId: string;
  state: FrameState;
  messages: Message[];
  tools: FrameTools | undefined;
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

function link(tree: InferenceTree): { parentId?: string } {
  return tree.parentId === undefined ? {} : { parentId: tree.parentId };
}

/** Sends the conversation once under the budget, tracing both ends. */
async function ask(c: Conversation, last: boolean): Promise<Completion> {
  const { tree, state, writer, traceId, messages, tools } = c;
  const { settings } = tree;
  const index = state.requests;
  let lastReceive = Number.NEGATIVE_INFINITY;
  const request: GenerateRequest = {
    messages: messages.slice(),
    ...(tools ? { tools: tools.specs, toolChoice: last ? 'none' : 'auto' } : {}),
    ...(settings.effort === undefined ? {} : { reasoningEffort: settings.effort }),
    ...(settings.abortSignal ? { abortSignal: settings.abortSignal } : {}),
    onReceive: () => {
      const now = settings.clock();
      if (now - lastReceive < RECEIVING_EVERY_MS) return;
      lastReceive = now;
      tree.emit({
        type: 'receiving',
        traceId,
        ...link(tree),
        elapsedMs: tree.elapsedMs(),
        request: index,
      });
    },
  };
  const sentAt = settings.clock();
  const { completion, settlement } = await generateWithBudget(settings.model, request, c.budget, {
    onReserved: (_reservation, maxTokens) => {
      state.requests += 1;
      writer.write({
        type: 'request',
        index,
        messages: messages.slice(state.recorded),
        maxTokens,
        tools: tools ? tools.specs.map((spec) => spec.name) : [],
        toolChoice: tools ? (last ? 'none' : 'auto') : null,
      });
      state.recorded = messages.length;
      tree.emit({
        type: 'request_start',
        traceId,
        ...link(tree),
        elapsedMs: tree.elapsedMs(),
        request: index,
        maxTokens,
        budget: c.budget.remaining(),
      });
    },
    onFailed: (error) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      const statusCode = (failure as { statusCode?: unknown }).statusCode;
      writer.write({
        type: 'request_error',
        index,
        error: {
          name: failure.name,
          message: failure.message,
          ...(typeof statusCode === 'number' ? { statusCode } : {}),
        },
      });
      tree.emit({
        type: 'request_end',
        traceId,
        ...link(tree),
        elapsedMs: tree.elapsedMs(),
        request: index,
        ok: false,
        charged: 0,
        latencyMs: Math.round(settings.clock() - sentAt),
        budget: c.budget.remaining(),
      });
    },
  });
  state.usage = addUsage(state.usage, completion.usage);
  state.recent.add('assistant', completion.content);
  writer.write({
    type: 'response',
    index,
    content: completion.content,
    reasoning: completion.reasoning,
    toolCalls: completion.toolCalls,
    finishReason: completion.finishReason,
    usage: completion.usage,
    charged: settlement.charged,
    model: completion.model,
    endpoint: completion.endpoint,
    latencyMs: completion.latencyMs,
  });
  tree.emit({
    type: 'request_end',
    traceId,
    ...link(tree),
    elapsedMs: tree.elapsedMs(),
    request: index,
    ok: true,
    usage: completion.usage,
    charged: settlement.charged,
    finishReason: completion.finishReason,
    latencyMs: Math.round(settings.clock() - sentAt),
    budget: c.budget.remaining(),
  });
  return completion;
}

/** Runs one round of tool calls (at most MAX_CALLS_PER_ROUND) and appends their results. */
async function toolRound(
  c: Conversation,
  tools: FrameTools,
  completion: Completion,
): Promise<void> {
  const { state, messages } = c;
  state.rounds += 1;
  const round = state.rounds;
  messages.push({
    role: 'assistant',
    content: completion.content,
    toolCalls: completion.toolCalls,
  });
  const outcomes = await Promise.all(
    completion.toolCalls.map((call, index): Promise<ToolOutcome> => {
      if (index >= MAX_CALLS_PER_ROUND) {
        return Promise.resolve({
          ok: false,
          result: `Not run: at most ${MAX_CALLS_PER_ROUND} tool calls are carried out per round.`,
        });
      }
      return tools.run(call).catch((error: unknown) => ({
        ok: false,
        result: `The tool failed: ${error instanceof Error ? error.message : String(error)}`,
      }));
    }),
  );
  for (const [index, call] of completion.toolCalls.entries()) {
    const outcome = outcomes[index] ?? { ok: false, result: 'no result' };
    const shown = boundResult(outcome.result);
    messages.push({ role: 'tool', toolCallId: call.id, content: shown });
    state.recent.add('tool', shown);
    c.writer.write({
      type: 'tool',
      round,
      call,
      ok: outcome.ok,
      result: shown,
      resultChars: outcome.result.length,
      ...(outcome.childIds && outcome.childIds.length > 0 ? { childIds: outcome.childIds } : {}),
    });
    c.tree.emit({
      type: 'tool',
      traceId: c.traceId,
      ...link(c.tree),
      elapsedMs: c.tree.elapsedMs(),
      round,
      name: call.name,
      ok: outcome.ok,
    });
  }
}

function boundResult(text: string): string {
  if (text.length <= MAX_TOOL_RESULT_CHARS) return text;
  return `${text.slice(0, MAX_TOOL_RESULT_CHARS)}\n[... ${text.length - MAX_TOOL_RESULT_CHARS} more characters not shown; ask for a smaller piece]`;
}
