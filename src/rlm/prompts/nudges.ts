/**
 * Nudge texts: the short user messages (or tool results) that steer the
 * model back onto its protocol. The rules for when each is given live with
 * the finish (finish.ts, turn-finish.ts) and the protocols; the words live here.
 */
import { MAX_ANSWER_CHARS } from '../finish/answer-limit.js';
import type { RejectDetail, RejectReason } from '../finish/judge.js';

export type NudgeKind =
  | 'no_action'
  | 'rejected_final'
  | 'plan_final'
  | 'reverify'
  | 'decompose'
  | 'cut_off'
  /** Tools protocol: a reply wrote its action as text instead of a tool call. */
  | 'protocol_slip';

export interface Nudge {
  kind: NudgeKind;
  text: string;
}

/** Which words a nudge uses: FINAL text (fence, upstream layout) or the final_answer tool. */
export type NudgeWording = 'fence' | 'tools';

const chars = (n: number) => n.toLocaleString('en-US');
const named = (variable: string | undefined) => (variable ? ` (${variable})` : '');

/** A reply with neither code nor a final answer (fence protocol, upstream layout). */
export const NO_ACTION_TEXT =
  'Your reply had no ```repl block and no FINAL line, so nothing happened. Run code to make progress, or finish with FINAL(answer) or FINAL_VAR(name) on a line of its own.';

/** Tools protocol: a reply with no tool call and no action written as text. */
export const NO_TOOL_CALL_TEXT =
  'Your reply made no tool call, so nothing happened. Call execute_python to run code in the REPL, or final_answer when you have the answer.';

/** Tools protocol: every tool call of the reply was refused. */
export const NO_CALL_CARRIED_OUT_TEXT =
  'None of your tool calls could be carried out (see the tool results). Call execute_python to run code, or final_answer to finish.';

/** Tools protocol: the first action written as text, acted on once. */
export function slipHonouredText(what: 'code' | 'final'): string {
  const wrote = what === 'code' ? 'code as text' : 'FINAL as text';
  return `Your reply wrote ${wrote} instead of calling a tool. It was accepted this once; from now on act only through execute_python and final_answer calls.`;
}

/** Tools protocol: a later action written as text, not acted on. */
export const SLIP_AGAIN_TEXT =
  'Your reply wrote its action as text again, so nothing ran. Call execute_python to run code, or final_answer to finish.';

/** Tools protocol: the tool message of a final_answer that was accepted, or refused with no nudge. */
export const FINAL_ACCEPTED_TEXT = 'Accepted. The run ends with this answer.';
export const FINAL_REFUSED_TEXT = 'final_answer was not accepted.';

/** Asks the model to continue a reply that the output limit cut off. */
export const CONTINUE_MESSAGE =
  'Your reply was cut off by the output limit. Continue exactly where it stopped, briefly, and finish the code block or the FINAL line.';

type RejectText = (detail: RejectDetail) => string;

/** Why a finish was refused, in each wording: one row per reason. */
const REJECTED: Record<RejectReason, { kind: NudgeKind; fence: RejectText; tools: RejectText }> = {
  code_not_run: {
    kind: 'rejected_final',
    fence: () =>
      'Your FINAL was not accepted: it came in the same reply as code, and that code had not run when you wrote it. Check the output above, then give FINAL in a reply without code.',
    tools: () =>
      'final_answer was not accepted: it came in the same reply as code that had not run yet. Read the output, then call final_answer on its own.',
  },
  missing_variable: {
    kind: 'rejected_final',
    fence: (d) =>
      `FINAL_VAR(${d.variable ?? ''}) was not accepted: there is no such variable in the REPL. Assign the answer to a variable first, or write FINAL(answer).`,
    tools: (d) =>
      `final_answer was not accepted: there is no REPL variable named ${d.variable ?? ''}. Assign the answer to a variable with execute_python first, or pass the text as \`answer\`.`,
  },
  empty: {
    kind: 'rejected_final',
    fence: () => 'Your final answer was empty, so it was not accepted. Give the answer itself.',
    tools: () => 'final_answer was not accepted: the answer was empty. Give the answer itself.',
  },
  plan_like: {
    kind: 'plan_final',
    fence: () =>
      'That FINAL describes work still to do rather than giving an answer. Do the work with code first; FINAL must hold the answer itself.',
    tools: () =>
      'final_answer was not accepted: it describes work still to do rather than giving an answer. Do the work with execute_python first; the answer must be the answer itself.',
  },
  unverified: {
    kind: 'reverify',
    fence: (d) =>
      `Before finishing, print the value you are about to return${named(d.variable)} and check that it answers the question. If it does, finish again.`,
    tools: (d) =>
      `Before finishing, print the value you are about to return${named(d.variable)} with execute_python and check that it answers the question. If it does, call final_answer again.`,
  },
  too_long: {
    kind: 'rejected_final',
    fence: (d) =>
      `Your final answer${named(d.variable)} was not accepted: it holds ${chars(d.chars ?? 0)} characters, more than the ${chars(MAX_ANSWER_CHARS)} an answer may have. Finish with a shorter answer: the part that answers the question, or a summary.`,
    tools: (d) =>
      `final_answer was not accepted: the answer${named(d.variable)} holds ${chars(d.chars ?? 0)} characters, more than the ${chars(MAX_ANSWER_CHARS)} an answer may have. Call final_answer with a shorter answer: the part that answers the question, or a summary.`,
  },
};

/** The nudge for a finish that was not accepted, in the protocol's wording. */
export function rejectNudge(
  wording: NudgeWording,
  reason: RejectReason,
  detail: RejectDetail,
): Nudge {
  const row = REJECTED[reason];
  return { kind: row.kind, text: row[wording](detail) };
}
