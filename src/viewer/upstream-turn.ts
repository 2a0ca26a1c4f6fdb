import { arr, display, isObj, num, numOr, type Obj, obj, optStr, str } from './coerce.js';
import { normaliseRecords } from './normalise.js';
import { preview } from './preview.js';
import { readUpstreamUsage } from './tokens.js';
import { messageOf, promptText } from './upstream-text.js';
import { parseMaybeJson } from './upstream-values.js';
import type { BlockView, ExecResultView, SubcallView, TurnView } from './view-model.js';

/** Builds one turn's details from an upstream iteration record. */
export function buildUpstreamTurn(record: Obj, rootModel?: string): TurnView {
  const turn = numOr(record.iteration, 0);
  const seconds = num(record.iteration_time);
  const messages = arr(record.prompt);
  const last = messageOf(record.prompt, 'user', 'last');
  const view: TurnView = {
    turn,
    recorded: true,
    content: str(record.response),
    reasoning: '',
    ms: seconds === null ? null : seconds * 1000,
    events: [],
    blocks: arr(parseMaybeJson(record.code_blocks)).map((b, i) => blockView(obj(b), i, rootModel)),
    looseSubcalls: [],
    nudges: [],
  };
  const at = optStr(record.timestamp);
  if (at) view.at = at;
  if (rootModel) view.model = rootModel;
  if (record.prompt !== undefined) {
    view.prompt = {
      messages: Array.isArray(record.prompt) ? messages.length : 1,
      chars: promptText(record.prompt).length,
      last: last === null ? null : preview(last),
    };
  }
  if (record.final_answer !== null && record.final_answer !== undefined) {
    view.final = { kind: 'final', accepted: true, answer: display(record.final_answer) };
  }
  return view;
}

function blockView(block: Obj, index: number, rootModel?: string): BlockView {
  const view: BlockView = { index, code: str(block.code), subcalls: [] };
  const raw = parseMaybeJson(block.result);
  if (raw === undefined || raw === null) return view;
  const result = isObj(raw) ? raw : { stdout: display(raw) };
  view.result = resultView(result);
  view.subcalls = arr(result.rlm_calls)
    .filter(isObj)
    .map((call) => subcallView(call, rootModel));
  return view;
}

function resultView(result: Obj): ExecResultView {
  const stdout = str(result.stdout);
  const stderr = str(result.stderr);
  const seconds = num(result.execution_time);
  const view: ExecResultView = {
    stdout,
    stderr,
    stdoutChars: stdout.length,
    stderrChars: stderr.length,
    truncated: false,
    elapsedMs: seconds === null ? null : seconds * 1000,
    timedOut: false,
  };
  const locals = parseMaybeJson(result.locals);
  if (isObj(locals)) {
    view.locals = Object.entries(locals).map(([name, value]) => [name, display(value)]);
  }
  if (result.final_answer !== null && result.final_answer !== undefined) {
    view.finalAnswer = display(result.final_answer);
  }
  return view;
}

function subcallView(call: Obj, rootModel?: string): SubcallView {
  const seconds = num(call.execution_time);
  const metadata = obj(call.metadata);
  const nested = Array.isArray(metadata.iterations);
  const view: SubcallView = {
    count: null,
    kind: nested ? 'rlm_query' : 'llm_query',
    depth: null,
    prompt: preview(promptText(call.prompt)),
    answer: preview(display(call.response ?? '')),
    latencyMs: seconds === null ? null : seconds * 1000,
  };
  const model = optStr(call.root_model) ?? rootModel;
  if (model) view.model = model;
  const usage = readUpstreamUsage(call.usage_summary);
  if (usage) view.usage = usage;
  if (call.error !== undefined && call.error !== null) view.error = display(call.error);
  if (nested) {
    const records: Obj[] = [
      { ...obj(metadata.run_metadata), type: 'metadata' },
      ...arr(metadata.iterations).map((it) => ({ ...obj(it), type: 'iteration' })),
    ];
    const child = normaliseRecords(records, 'upstream');
    if (child.header.question.chars === 0) child.header.question = view.prompt;
    child.header.depth = 1;
    view.child = { inline: child };
  }
  return view;
}
