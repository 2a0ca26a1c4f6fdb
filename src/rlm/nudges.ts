/**
 * Nudges: short user messages that steer the model back onto the protocol.
 * Each goes out as its own user message and is logged in the turn's record.
 */
import { MAX_ANSWER_CHARS, type RejectDetail, type RejectReason } from './finish.js';
import type { PromptVersion } from './prompts/types.js';

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

/** A reply with neither code nor a final answer. */
export function noActionNudge(): Nudge {
  return {
    kind: 'no_action',
    text: 'Your reply had no ```repl block and no FINAL line, so nothing happened. Run code to make progress, or finish with FINAL(answer) or FINAL_VAR(name) on a line of its own.',
  };
}

/** The nudge for a finish that was not accepted. */
export function rejectNudge(reason: RejectReason, detail: RejectDetail): Nudge {
  switch (reason) {
    case 'code_not_run':
      return {
        kind: 'rejected_final',
        text: 'Your FINAL was not accepted: it came in the same reply as code, and that code had not run when you wrote it. Check the output above, then give FINAL in a reply without code.',
      };
    case 'missing_variable':
      return {
        kind: 'rejected_final',
        text: `FINAL_VAR(${detail.variable ?? ''}) was not accepted: there is no such variable in the REPL. Assign the answer to a variable first, or write FINAL(answer).`,
      };
    case 'empty':
      return {
        kind: 'rejected_final',
        text: 'Your final answer was empty, so it was not accepted. Give the answer itself.',
      };
    case 'plan_like':
      return {
        kind: 'plan_final',
        text: 'That FINAL describes work still to do rather than giving an answer. Do the work with code first; FINAL must hold the answer itself.',
      };
    case 'unverified':
      return {
        kind: 'reverify',
        text: `Before finishing, print the value you are about to return${detail.variable ? ` (${detail.variable})` : ''} and check that it answers the question. If it does, finish again.`,
      };
    case 'too_long':
      return {
        kind: 'rejected_final',
        text: `Your final answer${detail.variable ? ` (${detail.variable})` : ''} was not accepted: it holds ${(detail.chars ?? 0).toLocaleString('en-US')} characters, more than the ${MAX_ANSWER_CHARS.toLocaleString('en-US')} an answer may have. Finish with a shorter answer: the part that answers the question, or a summary.`,
      };
  }
}

/** When one sub-call was given nearly all of a context larger than one call reads well. */
export function shouldDecompose(sizes: {
  promptChars: number;
  contextChars: number;
  perCallChars: number;
}): boolean {
  return sizes.contextChars > sizes.perCallChars && sizes.promptChars >= 0.9 * sizes.contextChars;
}

export function decomposeNudge(
  version: PromptVersion,
  sizes: { promptChars: number; contextChars: number; perCallChars: number },
): Nudge {
  return { kind: 'decompose', text: version.decompose(sizes) };
}
