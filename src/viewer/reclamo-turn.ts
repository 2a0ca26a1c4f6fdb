import { arr, bool, isObj, num, numOr, type Obj, obj, optStr, str } from './coerce.js';
import { preview } from './preview.js';
import { readUsage } from './tokens.js';
import type {
  BlockView,
  ExecResultView,
  SubcallView,
  TokenCount,
  TurnEvent,
  TurnView,
} from './view-model.js';

/** Builds one turn's details from the reclamo records of its timeline row, in file order. */
export function buildReclamoTurn(records: Obj[]): TurnView {
  const iteration = records.find((r) => r.type === 'iteration');
  const turn = numOr((iteration ?? records[0])?.turn, 0);
  const view: TurnView = iteration ? fromIteration(iteration, turn) : emptyTurnView(turn);
  for (const record of records) {
    if (record.type === 'subcall') attachSubcall(view, record);
    else if (record.type === 'compaction' || record.type === 'context_overflow') {
      view.events.push(turnEvent(record));
    }
  }
  return view;
}

function emptyTurnView(turn: number): TurnView {
  return {
    turn,
    recorded: false,
    content: '',
    reasoning: '',
    ms: null,
    events: [],
    blocks: [],
    looseSubcalls: [],
    nudges: [],
  };
}

function fromIteration(record: Obj, turn: number): TurnView {
  const view = emptyTurnView(turn);
  view.recorded = true;
  view.content = str(record.content);
  view.reasoning = str(record.reasoning);
  const at = optStr(record.t);
  if (at) view.at = at;
  const finishReason = optStr(record.finishReason);
  if (finishReason) view.finishReason = finishReason;
  const cut = optStr(record.cut);
  if (cut) view.cut = cut;
  copyCallMeta(view, record);
  const timings = obj(record.timings);
  if (isObj(record.timings)) {
    view.timings = {
      modelMs: numOr(timings.modelMs, 0),
      replMs: numOr(timings.replMs, 0),
      harnessMs: numOr(timings.harnessMs, 0),
    };
    view.ms = view.timings.modelMs + view.timings.replMs + view.timings.harnessMs;
  }
  view.blocks = arr(record.blocks).map((block, index) => blockView(obj(block), index));
  view.nudges = arr(record.nudges)
    .filter(isObj)
    .map((n) => ({ kind: str(n.kind, 'nudge'), text: str(n.text) }));
  if (isObj(record.final)) {
    const f = record.final;
    const reason = optStr(f.reason);
    const answer = typeof f.answer === 'string' ? f.answer : undefined;
    const variable = optStr(f.variable);
    view.final = {
      kind: str(f.kind, 'final'),
      accepted: bool(f.accepted),
      ...(reason ? { reason } : {}),
      ...(answer !== undefined ? { answer } : {}),
      ...(variable ? { variable } : {}),
    };
  }
  return view;
}

/** Which endpoint and model answered a call, and its usage, where the record names them. */
function copyCallMeta(
  view: { endpoint?: string; model?: string; usage?: TokenCount },
  record: Obj,
): void {
  const endpoint = optStr(record.endpoint);
  if (endpoint) view.endpoint = endpoint;
  const model = optStr(record.model);
  if (model) view.model = model;
  const usage = readUsage(record.usage);
  if (usage) view.usage = usage;
}

function blockView(block: Obj, index: number): BlockView {
  const view: BlockView = { index, code: str(block.code), subcalls: [] };
  const skipped = optStr(block.skipped);
  if (skipped) view.skipped = skipped;
  if (isObj(block.result)) view.result = resultView(block.result);
  return view;
}

function resultView(result: Obj): ExecResultView {
  const stdout = str(result.stdout);
  const stderr = str(result.stderr);
  const view: ExecResultView = {
    stdout,
    stderr,
    stdoutChars: numOr(result.stdoutChars, stdout.length),
    stderrChars: numOr(result.stderrChars, stderr.length),
    truncated: bool(result.truncated),
    elapsedMs: num(result.elapsedMs),
    timedOut: bool(result.timedOut),
  };
  const restarted = optStr(result.restarted);
  if (restarted) view.restarted = restarted;
  if (isObj(result.error)) {
    const line = num(result.error.line);
    view.error = {
      type: str(result.error.type, 'Error'),
      message: str(result.error.message),
      ...(line !== null ? { line } : {}),
    };
  }
  return view;
}

function attachSubcall(view: TurnView, record: Obj): void {
  const sub = subcallView(record);
  // `block` is 1-based: the first code block of the turn is block 1.
  const block = view.blocks[numOr(record.block, 0) - 1];
  if (block) block.subcalls.push(sub);
  else view.looseSubcalls.push(sub);
}

/** A reclamo sub-call record as the viewer shows it. */
export function subcallView(record: Obj): SubcallView {
  const view: SubcallView = {
    count: num(record.count),
    kind: str(record.kind, 'unknown'),
    depth: num(record.depth),
    prompt: preview(
      str(record.promptPreview),
      Number.POSITIVE_INFINITY,
      num(record.promptChars) ?? undefined,
    ),
    answer: preview(
      str(record.answerPreview),
      Number.POSITIVE_INFINITY,
      num(record.answerChars) ?? undefined,
    ),
    latencyMs: num(record.latencyMs),
  };
  const promptSha = optStr(record.promptSha256);
  if (promptSha) view.prompt.sha256 = promptSha;
  const answerSha = optStr(record.answerSha256);
  if (answerSha) view.answer.sha256 = answerSha;
  const at = optStr(record.t);
  if (at) view.at = at;
  copyCallMeta(view, record);
  const error = optStr(record.error);
  if (error) view.error = error;
  const child = optStr(record.child);
  if (child) view.child = { file: child };
  return view;
}

function turnEvent(record: Obj): TurnEvent {
  const at = optStr(record.t);
  if (record.type === 'compaction') return compactionEvent(record, at);
  return {
    kind: 'context_overflow',
    ...(at ? { at } : {}),
    estimatedTokens: numOr(record.estimatedTokens, 0),
    budgetTokens: numOr(record.budgetTokens, 0),
    contextTokens: numOr(record.contextTokens, 0),
    maxTokens: numOr(record.maxTokens, 0),
    action: str(record.action),
  };
}

function compactionEvent(record: Obj, at: string | undefined): TurnEvent {
  const estimator = optStr(record.estimator);
  const compactAt = num(record.compactAtTokens);
  const note = optStr(record.summaryNote);
  const shrunk = arr(record.shrunk)
    .filter(isObj)
    .map((s) => {
      const block = num(s.block);
      return {
        turn: numOr(s.turn, 0),
        ...(block !== null ? { block } : {}),
        fromChars: numOr(s.fromChars, 0),
        toChars: numOr(s.toChars, 0),
      };
    });
  return {
    kind: 'compaction',
    ...(at ? { at } : {}),
    beforeTokens: numOr(record.beforeTokens, 0),
    afterTokens: numOr(record.afterTokens, 0),
    budgetTokens: numOr(record.budgetTokens, 0),
    elidedTurns: arr(record.elidedTurns).map((t) => numOr(t, 0)),
    summarized: bool(record.summarized),
    shrunkMessages: numOr(record.shrunkMessages, 0),
    ...(estimator ? { estimator } : {}),
    ...(compactAt !== null ? { compactAtTokens: compactAt } : {}),
    ...(Array.isArray(record.summarizedTurns)
      ? { summarizedTurns: record.summarizedTurns.map((t) => numOr(t, 0)) }
      : {}),
    ...(note ? { summaryNote: note } : {}),
    ...(shrunk.length > 0 ? { shrunk } : {}),
    ...(record.overflow === true ? { overflow: true } : {}),
  };
}
