/**
 * Finish rules: when a FINAL / FINAL_VAR / answer-dict finish is accepted,
 * and how a forced finish falls back when the model gives nothing usable.
 */
import type { AnswerState, VariableValue } from '../../sandbox/sandbox.js';
import type { FinalDecision } from '../../trace/events.js';
import type { FinalCandidate } from '../protocols/fence/grammar.js';
import { MAX_ANSWER_CHARS } from './answer-limit.js';

/** Why a finish was not accepted; each maps to a nudge. */
export type RejectReason =
  | 'code_not_run'
  | 'plan_like'
  | 'missing_variable'
  | 'empty'
  | 'unverified'
  | 'too_long';

/** What a reject nudge may mention: the variable, and the size of an answer too long to take. */
export interface RejectDetail {
  variable?: string;
  chars?: number;
}

/** What the judge needs from the REPL (a subset of Sandbox). */
export interface FinishReader {
  getVariable(name: string, maxChars?: number): Promise<VariableValue>;
  readAnswer(): Promise<AnswerState>;
}

export interface JudgeContext {
  /** The same reply contained code (which has now run, or was skipped). */
  hadCode: boolean;
  /** A plan-like final was already rejected once in this run. */
  planRejected: boolean;
  /** The re-verify nudge was already given in this run. */
  reverified: boolean;
  /** True when `value` appeared in some REPL output this run. */
  wasPrinted: (value: string) => boolean;
  reader: FinishReader;
}

export interface Judgement {
  decision: FinalDecision;
  reject?: RejectReason;
  /** The full length of a value refused as too long. */
  chars?: number;
}

/** Longest variable name quoted back in a record or a nudge (no real name comes close). */
const NAME_CHARS = 200;

/** A FINAL_VAR argument as records and nudges quote it: a huge one is cut, with its size. */
export function quotedName(variable: string): string {
  if (variable.length <= NAME_CHARS) return variable;
  return `${variable.slice(0, NAME_CHARS)}... (${variable.length.toLocaleString('en-US')} characters)`;
}

/** Decides whether a FINAL / FINAL_VAR candidate ends the run. */
export async function judgeFinal(candidate: FinalCandidate, ctx: JudgeContext): Promise<Judgement> {
  if (candidate.kind === 'final') {
    if (candidate.answer.length > MAX_ANSWER_CHARS) {
      return tooLong({ kind: 'final' as const }, candidate.answer.length);
    }
    const base = { kind: 'final' as const, answer: candidate.answer };
    if (ctx.hadCode) return reject(base, 'code_not_run');
    if (candidate.answer.trim() === '') return reject(base, 'empty');
    if (!ctx.planRejected && isPlanLike(candidate.answer)) return reject(base, 'plan_like');
    return { decision: { ...base, accepted: true } };
  }
  const base = { kind: 'final_var' as const, variable: quotedName(candidate.variable) };
  const read = await readFinalValue(candidate.variable, ctx.reader);
  if (read === undefined) return reject(base, 'missing_variable');
  if (read.chars > MAX_ANSWER_CHARS) return tooLong(base, read.chars);
  const value = read.text;
  const withAnswer = { ...base, answer: value };
  if (value.trim() === '') return reject(withAnswer, 'empty');
  if (!ctx.reverified && !ctx.wasPrinted(value)) return reject(withAnswer, 'unverified');
  return { decision: { ...withAnswer, accepted: true } };
}

/** Judges an answer dict marked ready. */
export function judgeAnswerDict(state: AnswerState, ctx: JudgeContext): Judgement {
  if ((state.chars ?? 0) > MAX_ANSWER_CHARS) {
    return tooLong({ kind: 'answer_dict' as const }, state.chars ?? 0);
  }
  const base = { kind: 'answer_dict' as const, answer: state.content };
  if (state.content.trim() === '') return reject(base, 'empty');
  if (!ctx.reverified && !ctx.wasPrinted(state.content)) return reject(base, 'unverified');
  return { decision: { ...base, accepted: true } };
}

function reject(base: Omit<FinalDecision, 'accepted'>, reason: RejectReason): Judgement {
  return { decision: { ...base, accepted: false, reason }, reject: reason };
}

/** A value too long to be the answer: refused, and the trajectory keeps only its size. */
function tooLong(base: Omit<FinalDecision, 'accepted'>, chars: number): Judgement {
  return { ...reject(base, 'too_long'), chars };
}

/** True for `answer`, `answer['content']` and `answer["content"]`. */
export function isAnswerDictRef(variable: string): boolean {
  return /^answer\s*(\[\s*(['"])content\2\s*\])?$/.test(variable.trim());
}

/** A FINAL_VAR's value (cut at MAX_ANSWER_CHARS) and its full length, or undefined when there is no such variable. */
export async function readFinalValue(
  variable: string,
  reader: FinishReader,
): Promise<{ text: string; chars: number } | undefined> {
  if (isAnswerDictRef(variable)) {
    const state = await reader.readAnswer();
    if (state.content === '') return undefined;
    return { text: state.content, chars: state.chars ?? state.content.length };
  }
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) return undefined;
  const value = await reader.getVariable(variable, MAX_ANSWER_CHARS);
  if (!value.exists) return undefined;
  const text = value.text ?? '';
  return { text, chars: value.chars ?? text.length };
}

const PLAN_START =
  /^(?:ok(?:ay)?[,.!]?\s+)?(?:i\s+will|i'll|i\s+am\s+going\s+to|i'm\s+going\s+to|i\s+need\s+to|i\s+should|let\s+me|let's|let\s+us|we\s+will|we'll|we\s+need\s+to|next,?\s|now,?\s+i|first,?\s|to\s+answer\s+this,?\s+i)/i;

/** A "final" that announces work instead of giving an answer ("I will now search..."). */
export function isPlanLike(answer: string): boolean {
  const text = answer.trim();
  if (text === '') return false;
  return PLAN_START.test(text);
}
