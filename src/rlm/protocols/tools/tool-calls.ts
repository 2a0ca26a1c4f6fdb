/**
 * Reading a reply's tool calls under the tools protocol: each call of
 * `execute_python(code)` or `final_answer(answer | variable)` is validated into
 * an action, or refused with the reason the model is told in its tool
 * message. It runs nothing itself.
 */
import type { ToolCall } from '../../../lm/model.js';
import { type ParseResult, safeParseJson } from '../../../util/safe-json.js';
import { quotedName } from '../../finish/judge.js';
import type { FinalCandidate } from '../fence/grammar.js';
import { EXECUTE_PYTHON, FINAL_ANSWER } from './tool-specs.js';

/** What one tool call asks for, after validation. */
export type ToolAction =
  | { kind: 'execute'; call: ToolCall; code: string }
  | { kind: 'final'; call: ToolCall; answer: string }
  | { kind: 'final_var'; call: ToolCall; variable: string }
  /** A call that cannot be carried out; `reason` is what the model is told in the tool message. */
  | { kind: 'rejected'; call: ToolCall; reason: string; wasFinal: boolean };

/** Parse tool-call arguments; an empty string counts as `{}` (some servers send it for no arguments). */
export function parseToolArguments(text: string): ParseResult<Record<string, unknown>> {
  if (text.trim() === '') return { ok: true, value: {} };
  const parsed = safeParseJson(text);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'the arguments are not a JSON object' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

const PY_IDENTIFIER = /^[\p{L}_][\p{L}\p{N}_]*$/u;

/** A call refused; `reason` is what its tool message says. */
function refuse(call: ToolCall, reason: string): ToolAction {
  return { kind: 'rejected', call, reason, wasFinal: false };
}

/** A final_answer call refused (it counts as a refused finish). */
function refuseFinal(call: ToolCall, reason: string): ToolAction {
  return { kind: 'rejected', call, reason, wasFinal: true };
}

function parseExecute(call: ToolCall, args: Record<string, unknown>): ToolAction {
  const code = args.code;
  if (typeof code !== 'string') {
    return refuse(call, 'execute_python needs a string argument `code`; nothing ran.');
  }
  if (code.trim() === '') return refuse(call, 'execute_python got empty code; nothing ran.');
  return { kind: 'execute', call, code };
}

/** A present argument: null counts as absent, so `{"answer": "x", "variable": null}` is fine. */
function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function parseFinal(call: ToolCall, args: Record<string, unknown>): ToolAction {
  const { answer, variable } = args;
  if (present(answer) && present(variable)) {
    return refuseFinal(
      call,
      'final_answer takes exactly one of `answer` or `variable`, not both. Call it again with one.',
    );
  }
  if (present(variable)) {
    if (typeof variable !== 'string' || !PY_IDENTIFIER.test(variable.trim())) {
      return refuseFinal(
        call,
        `final_answer \`variable\` must be the bare name of a REPL variable; got ${quotedName(JSON.stringify(variable) ?? String(variable))}.`,
      );
    }
    return { kind: 'final_var', call, variable: variable.trim() };
  }
  if (present(answer)) {
    if (typeof answer !== 'string' && typeof answer !== 'number' && typeof answer !== 'boolean') {
      return refuseFinal(call, 'final_answer `answer` must be text.');
    }
    const text = String(answer);
    if (text.trim() === '') return refuseFinal(call, 'final_answer got an empty `answer`.');
    return { kind: 'final', call, answer: text };
  }
  return refuseFinal(
    call,
    'final_answer needs one argument: `answer` (the text) or `variable` (a REPL variable name).',
  );
}

/** Validate one tool call into an action. Problems become a rejection the model is told about. */
export function parseToolCall(call: ToolCall): ToolAction {
  const isFinal = call.name === FINAL_ANSWER;
  if (call.name !== EXECUTE_PYTHON && !isFinal) {
    return refuse(
      call,
      `There is no tool named ${JSON.stringify(call.name)}. Use execute_python or final_answer.`,
    );
  }
  const args = parseToolArguments(call.arguments);
  if (!args.ok) {
    return (isFinal ? refuseFinal : refuse)(
      call,
      `The arguments of ${call.name} are not a valid JSON object (${args.error}); nothing was done. ` +
        'Send them again as JSON.',
    );
  }
  return isFinal ? parseFinal(call, args.value) : parseExecute(call, args.value);
}

/**
 * Validate every call of a reply and apply the per-reply rules: a final sent
 * next to code is rejected (the model has not seen that code's output), and
 * only the first valid final of a reply counts.
 */
export function parseToolCalls(calls: readonly ToolCall[]): ToolAction[] {
  const actions = calls.map(parseToolCall);
  const hasCode = actions.some((a) => a.kind === 'execute');
  let finalSeen = false;
  return actions.map((action) => {
    if (action.kind !== 'final' && action.kind !== 'final_var') return action;
    if (hasCode) {
      return refuseFinal(
        action.call,
        'final_answer was sent in the same reply as execute_python, so it was not accepted: ' +
          'you had not seen that code’s output. Read the output, then call final_answer on its own.',
      );
    }
    if (finalSeen) {
      return refuseFinal(action.call, 'Only the first final_answer of a reply counts.');
    }
    finalSeen = true;
    return action;
  });
}

/** The final action of a reply, when there is a valid one. */
export function findFinalAction(
  actions: readonly ToolAction[],
): Extract<ToolAction, { kind: 'final' | 'final_var' }> | undefined {
  for (const action of actions) {
    if (action.kind === 'final' || action.kind === 'final_var') return action;
  }
  return undefined;
}

/** A valid final action as the finish judge reads it (null when there is none). */
export function finalCandidateOf(
  action: Extract<ToolAction, { kind: 'final' | 'final_var' }> | undefined,
): FinalCandidate | null {
  if (action?.kind === 'final') return { kind: 'final', answer: action.answer, viaToolCall: true };
  if (action?.kind === 'final_var') {
    return { kind: 'final_var', variable: action.variable, viaToolCall: true };
  }
  return null;
}
