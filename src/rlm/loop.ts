/**
 * One RLM's turn loop (the root at depth 0, or a child): ask the model, run
 * its code, judge its finish, nudge, and stop on a final answer or a limit.
 */
import { basename } from 'node:path';
import { DeadlineError, EndpointError, KeyError } from '../errors.js';
import type { Message } from '../lm/model.js';
import { estimatorFor } from '../lm/tokens/index.js';
import type { ContextSource, ExecResult, Sandbox } from '../sandbox/sandbox.js';
import type { BlockRecord, FinalDecision, StopReason } from '../trace/events.js';
import { type EventInput, TrajectoryWriter, trajectoryStem } from '../trace/writer.js';
import { ContextKeeper, type ShownOutput, summaryPrompt } from './context-keeper.js';
import { createRootProtocol } from './create-root-protocol.js';
import { type CodeBlock, stripThink } from './fence.js';
import { type JudgeContext, type Judgement, judgeAnswerDict, judgeFinal } from './finish.js';
import { type ForcedFinishOutcome, type ForcedReason, forcedFinish } from './forced-finish.js';
import { decomposeNudge, type Nudge, shouldDecompose } from './nudges.js';
import { formatResultBody, turnLine } from './prompts/messages.js';
import type { RootProtocol } from './root-protocol.js';
import type { RunShared } from './run-state.js';
import { type StartedSandbox, startSandbox } from './start-sandbox.js';
import {
  createHostCallHandler,
  type ExecPosition,
  type SubcallHost,
  summarySubcall,
} from './subcalls.js';
import { getTurnReply } from './turn-reply.js';

export interface LoopInput {
  query: string;
  context: ContextSource;
  depth: number;
  parent?: { runId: string; file: string; subcall: number };
  /** A REPL already starting for this RLM (the root's starts while the models load). */
  started?: StartedSandbox;
}

export interface LoopOutcome {
  runId: string;
  answer: string;
  stopReason: StopReason;
  turns: number;
  trajectoryPath: string;
  sftPath?: string;
  forced?: Pick<ForcedFinishOutcome, 'source' | 'variable'>;
  /** The error that stopped the run (endpoint failure), when one did. */
  error?: unknown;
  stats: LoopStats;
}

interface LoopStats {
  execs: number;
  syntaxErrors: number;
  rejectedFinals: number;
  protocolSlips: number;
  nudges: number;
}

/** Mutable state of one loop. */
interface LoopState {
  /** How the root acts: fence, tools or the upstream layout. */
  protocol: RootProtocol;
  history: Message[];
  /** The system prompt and opening messages (what a context-overflow finish is built on). */
  opening: Message[];
  /** The context budget: history structure, REPL `history`, compaction. */
  keeper: ContextKeeper;
  shown: string[];
  lastOutput: string;
  consecutiveErrors: number;
  planRejected: boolean;
  reverified: boolean;
  decomposeDue: { promptChars: number } | null;
  decomposeGiven: boolean;
  /** Estimated size of the request that could not be made to fit. */
  overflowTokens?: number;
  stats: LoopStats;
}

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
  });
  const emit = (event: EventInput) => {
    const written = writer.write(event);
    o.onEvent?.(written, input.depth);
  };
  const position: ExecPosition = { turn: 0, block: 0, inExec: 0 };
  // Loaded once per process and model family (cached), so only the first RLM waits.
  const estimator = await estimatorFor(o.models.root.modelId);
  const state: LoopState = {
    protocol: createRootProtocol(s, input.query),
    history: [],
    opening: [],
    keeper: new ContextKeeper({
      budget: s.budget,
      estimator,
      summarize: (texts) => summarySubcall(host, summaryPrompt(input.query, texts)),
      now: o.now,
    }),
    shown: [],
    lastOutput: '',
    consecutiveErrors: 0,
    planRejected: false,
    reverified: false,
    decomposeDue: null,
    decomposeGiven: false,
    stats: { execs: 0, syntaxErrors: 0, rejectedFinals: 0, protocolSlips: 0, nudges: 0 },
  };
  const host: SubcallHost = {
    shared,
    depth: input.depth,
    position,
    record: emit,
    onPrompt: (chars) => {
      if (state.decomposeGiven || state.decomposeDue) return;
      const sizes = {
        promptChars: chars,
        contextChars: sandbox?.contextShape.totalChars ?? 0,
        perCallChars: s.subcallChars,
      };
      if (shouldDecompose(sizes)) state.decomposeDue = { promptChars: chars };
    },
    runChild: async (req) => {
      const child = await runLoop(shared, {
        query: req.question,
        context: req.context,
        depth: input.depth + 1,
        parent: { runId, file: basename(writer.path), subcall: req.subcall },
      });
      shared.childTurns += child.turns;
      if (child.error !== undefined) throw child.error;
      return { answer: child.answer, file: basename(child.trajectoryPath) };
    },
  };
  const onHostCall = createHostCallHandler(host);

  let sandbox: Sandbox | undefined;
  try {
    const started = input.started ?? startSandbox(input.context, s, o.python);
    started.bind(onHostCall);
    sandbox = await started.sandbox;
  } catch (error) {
    writer.close();
    throw error;
  }

  let outcome: Omit<LoopOutcome, 'runId' | 'trajectoryPath' | 'stats' | 'turns'> | undefined;
  let turns = 0;
  try {
    emit({
      type: 'metadata',
      runId,
      query: input.query,
      context: sandbox.contextShape,
      depth: input.depth,
      maxDepth: s.maxDepth,
      profile: o.profile,
      endpoints: o.endpoints,
      promptVersion: s.version.id,
      protocol: s.protocol,
      plannerStyle: s.plannerStyle,
      estimator: estimator.name,
      contextBudget: {
        contextTokens: s.budget.contextTokens,
        maxTokens: s.budget.maxTokens,
        limitTokens: s.budget.limitTokens,
        compactAtTokens: s.budget.compactAtTokens,
      },
      ...(input.parent ? { parent: input.parent } : {}),
    });
    await sandbox.setVariable('question', input.query);
    const system =
      o.systemPrompt ??
      state.protocol.systemPrompt(s.version, {
        subcallChars: s.subcallChars,
        maxSubcallsPerExec: s.maxSubcallsPerExec,
        maxSubcallsPerRun: s.maxSubcallsPerRun,
        outputTruncateChars: s.outputTruncateChars,
        childRlm: input.depth + 1 < s.maxDepth,
        execTimeoutSeconds: s.execTimeoutMs / 1000,
      });
    state.history.push(
      { role: 'system', content: system },
      ...state.protocol.opening(sandbox.contextShape, input.query, turnLine(1, s.maxIterations)),
    );
    state.opening = state.history.slice();
    state.keeper.addFixed(state.history.length);
    await state.keeper.syncHistory(sandbox);

    for (let turn = 1; turn <= s.maxIterations && !outcome; turn++) {
      const stop = limitReached(shared);
      if (stop) {
        outcome = await finishForced(stop, shared, input, state, sandbox, emit);
        break;
      }
      position.turn = turn;
      shared.status(input.depth, turn);
      const result = await oneTurn(shared, input, state, sandbox, position, turn, emit, writer);
      turns = turn;
      if (result.kind === 'done') outcome = result.outcome;
    }
    if (!outcome) {
      outcome = await finishForced('max_iterations', shared, input, state, sandbox, emit);
    }
  } catch (error) {
    // Anything unexpected (a dead sandbox, a model failure) ends the run with a partial answer.
    const partial = await forcedFinish({
      reason: 'endpoint_error',
      query: input.query,
      history: state.history,
      sandbox,
      lastOutput: state.lastOutput,
      askModel: false,
      model: o.models.root,
      deadline: shared.deadline,
      now: o.now,
      timeoutMs: s.root.timeoutMs,
    });
    outcome = {
      answer: partial.answer,
      stopReason: shared.aborted()
        ? 'aborted'
        : isEndpointFailure(error)
          ? 'endpoint_error'
          : 'sandbox_error',
      forced: pickForced(partial),
      error,
    };
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

type TurnResult =
  | { kind: 'continue' }
  | { kind: 'done'; outcome: Omit<LoopOutcome, 'runId' | 'trajectoryPath' | 'stats' | 'turns'> };

async function oneTurn(
  shared: RunShared,
  input: LoopInput,
  state: LoopState,
  sandbox: Sandbox,
  position: ExecPosition,
  turn: number,
  emit: (e: EventInput) => void,
  writer: TrajectoryWriter,
): Promise<TurnResult> {
  const o = shared.o;
  const s = shared.settings;
  const turnStart = o.now();
  const protocol = state.protocol;
  const fitted = await fitRequest(state, sandbox, turn, emit);
  if (!fitted) {
    return {
      kind: 'done',
      outcome: await finishForced('context_overflow', shared, input, state, sandbox, emit, turn),
    };
  }
  const request = {
    messages: fitted,
    ...(protocol.tools ? { tools: protocol.tools } : {}),
    maxTokens: s.root.maxTokens,
    ...(s.root.thinking !== undefined ? { thinking: s.root.thinking } : {}),
    ...(s.root.sampling ? { sampling: s.root.sampling } : {}),
    ...(s.root.reasoningEffort ? { reasoningEffort: s.root.reasoningEffort } : {}),
  };
  const modelStart = o.now();
  let reply: Awaited<ReturnType<typeof getTurnReply>>;
  try {
    reply = await getTurnReply(
      o.models.root,
      request,
      {
        deadline: shared.deadline,
        now: o.now,
        timeoutMs: s.root.timeoutMs,
        ...(o.abortSignal ? { abortSignal: o.abortSignal } : {}),
      },
      s.continueCutReplies,
    );
  } catch (error) {
    if (error instanceof DeadlineError || shared.timeLeft() <= 0) {
      return {
        kind: 'done',
        outcome: await finishForced('max_timeout', shared, input, state, sandbox, emit),
      };
    }
    throw error;
  }
  const modelMs = o.now() - modelStart;
  shared.addUsage('root', reply.completion.usage);
  writer.writeSft(request.messages, reply.content);

  const content = stripThink(reply.content);
  const parsed = protocol.parse(content, reply.completion.toolCalls, turn);
  const cut = reply.completion.finishReason === 'length' && reply.cut === undefined;
  const blocks = cut ? parsed.blocks.filter((b) => b.complete) : parsed.blocks;
  state.stats.protocolSlips += parsed.slips;
  state.stats.rejectedFinals += parsed.rejectedFinals;

  // Run the code, in order.
  const replStart = o.now();
  const records: BlockRecord[] = [];
  const outputs: string[] = [];
  const shownOutputs: ShownOutput[] = [];
  let restarted = false;
  let errorLimit = false;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as CodeBlock;
    const skip = errorLimit
      ? 'too many executions in a row failed'
      : shared.timeLeft() <= 0
        ? 'the time limit for this run has passed'
        : shared.budgetExhausted
          ? 'the token budget is spent'
          : shared.aborted()
            ? 'the run was cancelled'
            : undefined;
    if (skip !== undefined) {
      records.push({ code: block.code, skipped: skip });
      outputs.push(protocol.skippedBlock(i, block.code, skip));
      continue;
    }
    position.block = i + 1;
    position.inExec = 0;
    const timeoutMs = Math.min(s.execTimeoutMs, Math.max(1000, shared.timeLeft()));
    const result = await sandbox.exec(block.code, {
      timeoutMs,
      maxHostCalls: s.maxSubcallsPerExec,
    });
    state.stats.execs++;
    if (result.error?.type === 'SyntaxError') state.stats.syntaxErrors++;
    const { message, shown } = await protocol.formatBlock(i, block.code, result, sandbox);
    outputs.push(message);
    const full = formatResultBody(result, Number.POSITIVE_INFINITY);
    state.keeper.addOutput(full);
    shownOutputs.push({ shown, full, block: i + 1 });
    if (result.restarted) restarted = true;
    state.shown.push(shown);
    state.lastOutput = shown;
    records.push({ code: block.code, result: blockResult(result, shown) });
    if (result.error || result.timedOut || result.restarted) {
      state.consecutiveErrors++;
      if (state.consecutiveErrors >= s.maxErrors) errorLimit = true;
    } else {
      state.consecutiveErrors = 0;
    }
  }
  const replMs = blocks.length > 0 ? o.now() - replStart : 0;

  // Judge the finish.
  const judgeCtx: JudgeContext = {
    hadCode: blocks.length > 0,
    planRejected: state.planRejected,
    reverified: state.reverified,
    wasPrinted: (value) => wasPrinted(state.shown, value),
    reader: sandbox,
  };
  let judgement: Judgement | null = null;
  if (parsed.final) judgement = await judgeFinal(parsed.final, judgeCtx);
  if (!judgement?.decision.accepted && blocks.length > 0 && !errorLimit && protocol.answerDict) {
    const answer = await sandbox.readAnswer();
    if (answer.ready) judgement = judgeAnswerDict(answer, judgeCtx);
  }
  let decision: FinalDecision | null = judgement?.decision ?? null;
  if (decision && parsed.finalKind && decision.kind !== 'answer_dict') {
    decision = { ...decision, kind: parsed.finalKind };
  }

  const nudges: Nudge[] = [...parsed.nudges];
  let finalNudge: Nudge | null = null;
  if (judgement?.reject) {
    state.stats.rejectedFinals++;
    if (judgement.reject === 'plan_like') state.planRejected = true;
    if (judgement.reject === 'unverified') state.reverified = true;
    finalNudge = protocol.rejectNudge(
      judgement.reject,
      decision?.variable ? { variable: decision.variable } : {},
    );
    nudges.push(finalNudge);
  } else if (!decision && blocks.length === 0 && !parsed.acted) {
    state.stats.protocolSlips++;
    nudges.push(parsed.noAction);
  }
  if (state.decomposeDue && !state.decomposeGiven) {
    nudges.push(
      decomposeNudge(s.version, {
        promptChars: state.decomposeDue.promptChars,
        contextChars: sandbox.contextShape.totalChars,
        perCallChars: s.subcallChars,
      }),
    );
    state.decomposeGiven = true;
    state.decomposeDue = null;
  }
  state.stats.nudges += nudges.length;

  const accepted = decision?.accepted === true;
  const turnMessages = protocol.closeTurn({
    content,
    parsed,
    outputs,
    decision,
    finalNudge,
    nudges,
    nextTurnLine: turnLine(turn + 1, s.maxIterations),
  });
  state.history.push(...turnMessages);
  state.keeper.addTurn(turnMessages, turn, shownOutputs);
  await state.keeper.syncHistory(sandbox, restarted);

  const harnessMs = o.now() - turnStart - modelMs - replMs;
  emit({
    type: 'iteration',
    turn,
    content,
    reasoning: reply.reasoning,
    blocks: records,
    nudges: nudges.map((n) => ({ kind: n.kind, text: n.text })),
    final: decision,
    endpoint: reply.completion.endpoint,
    model: reply.completion.model,
    usage: reply.completion.usage,
    finishReason: reply.completion.finishReason,
    timings: { modelMs: round(modelMs), replMs: round(replMs), harnessMs: round(harnessMs) },
    ...(reply.cut ? { cut: reply.cut } : {}),
    ...(reply.completion.toolCalls.length > 0
      ? {
          toolCalls: reply.completion.toolCalls.map(({ id, name, arguments: a }) => ({
            id,
            name,
            arguments: a,
          })),
        }
      : {}),
    ...(parsed.slip ? { protocolSlip: parsed.slip } : {}),
  });

  if (accepted && decision) {
    return {
      kind: 'done',
      outcome: {
        answer: decision.answer ?? '',
        stopReason: decision.kind === 'answer_dict' ? 'answer_dict' : 'final',
      },
    };
  }
  if (errorLimit) {
    return {
      kind: 'done',
      outcome: await finishForced('error_limit', shared, input, state, sandbox, emit),
    };
  }
  return { kind: 'continue' };
}

/** A limit that ends the loop before the next turn, if one is reached. */
function limitReached(shared: RunShared): ForcedReason | null {
  if (shared.aborted()) return 'aborted';
  if (shared.budgetExhausted) return 'token_budget';
  if (shared.timeLeft() <= 0) return 'max_timeout';
  return null;
}

/**
 * Brings the next root request under the budget (writing a `compaction`
 * record when anything was tried). Returns its messages, or null when it
 * cannot fit (after writing `context_overflow`'s estimate into the keeper).
 */
async function fitRequest(
  state: LoopState,
  sandbox: Sandbox,
  turn: number,
  emit: (e: EventInput) => void,
): Promise<Message[] | null> {
  const protocol = state.protocol;
  const full = protocol.request(state.history, turn);
  // Every protocol sends the stored history followed by messages it never stores.
  const trailing = full.slice(state.history.length);
  const fitted = await state.keeper.fit(state.history, trailing, protocol.tools, turn, sandbox);
  if (fitted.record) emit({ type: 'compaction', ...fitted.record });
  state.history = fitted.messages;
  if (fitted.overflow) {
    state.overflowTokens = fitted.afterTokens;
    return null;
  }
  return fitted.beforeTokens === fitted.afterTokens ? full : protocol.request(state.history, turn);
}

async function finishForced(
  reason: ForcedReason,
  shared: RunShared,
  input: LoopInput,
  state: LoopState,
  sandbox: Sandbox,
  emit: (e: EventInput) => void,
  turn = 0,
): Promise<Omit<LoopOutcome, 'runId' | 'trajectoryPath' | 'stats' | 'turns'>> {
  const o = shared.o;
  const askModel = reason !== 'token_budget' && reason !== 'aborted' && reason !== 'endpoint_error';
  const overflow = reason === 'context_overflow';
  const keeper = state.keeper;
  const result = await forcedFinish({
    reason,
    query: input.query,
    // A request that could not be made to fit is retried with the opening messages only.
    history: overflow ? state.opening : state.history,
    ...(overflow ? {} : { fallbackHistory: state.opening }),
    fits: (messages, tools) => keeper.fits(messages, tools),
    sandbox,
    lastOutput: state.lastOutput,
    askModel,
    model: o.models.root,
    deadline: shared.deadline,
    now: o.now,
    timeoutMs: shared.settings.root.timeoutMs,
    ...(o.abortSignal ? { abortSignal: o.abortSignal } : {}),
    ...(state.protocol.tools ? { finalTool: true } : {}),
  });
  if (result.completion) shared.addUsage('root', result.completion.usage);
  if (overflow) {
    emit({
      type: 'context_overflow',
      turn,
      estimatedTokens: state.overflowTokens ?? 0,
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
  });
  const stopReason: StopReason = reason === 'endpoint_error' ? 'endpoint_error' : reason;
  return { answer: result.answer, stopReason, forced: pickForced(result) };
}

function pickForced(r: ForcedFinishOutcome): Pick<ForcedFinishOutcome, 'source' | 'variable'> {
  return r.variable !== undefined
    ? { source: r.source, variable: r.variable }
    : { source: r.source };
}

function blockResult(r: ExecResult, shown: string): NonNullable<BlockRecord['result']> {
  return {
    stdout: r.stdout,
    stderr: r.stderr,
    stdoutChars: r.stdoutChars,
    stderrChars: r.stderrChars,
    truncated: r.stdoutOverflow || r.stderrOverflow || shown.includes(' characters cut] ...'),
    ...(r.error
      ? {
          error: {
            type: r.error.type,
            message: r.error.message,
            ...(r.error.line !== undefined ? { line: r.error.line } : {}),
          },
        }
      : {}),
    elapsedMs: round(r.elapsedMs),
    hostCalls: r.hostCalls,
    timedOut: r.timedOut,
    ...(r.restarted ? { restarted: `${r.restarted.reason}: ${r.restarted.detail}` } : {}),
  };
}

/** Whether the model has seen this value in some REPL output of the run. */
function wasPrinted(shown: string[], value: string): boolean {
  const probe = value.trim().slice(0, 500);
  if (probe === '') return true;
  return shown.some((out) => out.includes(probe));
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function isEndpointFailure(error: unknown): boolean {
  return error instanceof EndpointError || error instanceof KeyError;
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
