/**
 * The tools protocol: the root model acts through two function calls,
 * `execute_python(code)` and `final_answer(answer | variable)`, instead of
 * fenced code and FINAL(...) text. This file holds the tool definitions and
 * turns a reply's tool calls into actions; it runs nothing itself.
 */
import type { ToolCall, ToolSpec } from '../../../lm/model.js';
import { type ParseResult, safeParseJson } from '../../../util/safe-json.js';
import { quotedName } from '../../finish/judge.js';
import type { FinalCandidate } from '../fence/grammar.js';

export const EXECUTE_PYTHON = 'execute_python';
export const FINAL_ANSWER = 'final_answer';

/** Runs code in the persistent REPL. */
export const executePythonTool: ToolSpec = {
  name: EXECUTE_PYTHON,
  description:
    'Run Python code in the persistent REPL. The `context` variable and the llm_query helpers ' +
    'are already defined, and variables you create stay for later calls. Returns what the ' +
    'code printed (cut when long) and any error.',
  parameters: {
    type: 'object',
    properties: {
      code: { type: 'string', description: 'The Python source to run.' },
    },
    required: ['code'],
    additionalProperties: false,
  },
};

/** Ends the run with an answer, given as text or as the name of a REPL variable. */
export const finalAnswerTool: ToolSpec = {
  name: FINAL_ANSWER,
  description:
    'Finish with your answer to the question. Give exactly one argument: `answer` with the ' +
    'answer text, or `variable` with the name of a REPL variable that holds it. Call it on ' +
    'its own, after you have seen the output that supports the answer.',
  parameters: {
    type: 'object',
    properties: {
      answer: { type: 'string', description: 'The final answer, written out in full.' },
      variable: {
        type: 'string',
        description: 'Name of an existing REPL variable whose value is the final answer.',
      },
    },
    additionalProperties: false,
  },
};

/** The tools the root model gets under the tools protocol, in the order they are sent. */
export const rootTools: readonly ToolSpec[] = [executePythonTool, finalAnswerTool];

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

function reject(call: ToolCall, reason: string, wasFinal: boolean): ToolAction {
  return { kind: 'rejected', call, reason, wasFinal };
}

function parseExecute(call: ToolCall, args: Record<string, unknown>): ToolAction {
  const code = args.code;
  if (typeof code !== 'string') {
    return reject(call, 'execute_python needs a string argument `code`; nothing ran.', false);
  }
  if (code.trim() === '') return reject(call, 'execute_python got empty code; nothing ran.', false);
  return { kind: 'execute', call, code };
}

/** A present argument: null counts as absent, so `{"answer": "x", "variable": null}` is fine. */
function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function parseFinal(call: ToolCall, args: Record<string, unknown>): ToolAction {
  const { answer, variable } = args;
  if (present(answer) && present(variable)) {
    return reject(
      call,
      'final_answer takes exactly one of `answer` or `variable`, not both. Call it again with one.',
      true,
    );
  }
  if (present(variable)) {
    if (typeof variable !== 'string' || !PY_IDENTIFIER.test(variable.trim())) {
      return reject(
        call,
        `final_answer \`variable\` must be the bare name of a REPL variable; got ${quotedName(JSON.stringify(variable) ?? String(variable))}.`,
        true,
      );
    }
    return { kind: 'final_var', call, variable: variable.trim() };
  }
  if (present(answer)) {
    if (typeof answer !== 'string' && typeof answer !== 'number' && typeof answer !== 'boolean') {
      return reject(call, 'final_answer `answer` must be text.', true);
    }
    const text = String(answer);
    if (text.trim() === '') return reject(call, 'final_answer got an empty `answer`.', true);
    return { kind: 'final', call, answer: text };
  }
  return reject(
    call,
    'final_answer needs one argument: `answer` (the text) or `variable` (a REPL variable name).',
    true,
  );
}

/** Validate one tool call into an action. Problems become a rejection the model is told about. */
export function parseToolCall(call: ToolCall): ToolAction {
  const isFinal = call.name === FINAL_ANSWER;
  if (call.name !== EXECUTE_PYTHON && !isFinal) {
    return reject(
      call,
      `There is no tool named ${JSON.stringify(call.name)}. Use execute_python or final_answer.`,
      false,
    );
  }
  const args = parseToolArguments(call.arguments);
  if (!args.ok) {
    return reject(
      call,
      `The arguments of ${call.name} are not a valid JSON object (${args.error}); nothing was done. ` +
        'Send them again as JSON.',
      isFinal,
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
      return reject(
        action.call,
        'final_answer was sent in the same reply as execute_python, so it was not accepted: ' +
          'you had not seen that code’s output. Read the output, then call final_answer on its own.',
        true,
      );
    }
    if (finalSeen) {
      return reject(action.call, 'Only the first final_answer of a reply counts.', true);
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
