/**
 * The forced finish: when turns, time, errors or the window run out, one
 * last bounded call shows the model what the REPL holds and asks for FINAL or
 * FINAL_VAR. If that gives nothing usable, the fallbacks are the answer dict,
 * then an answer variable, then the reply's prose, then empty. Code is never
 * returned as an answer.
 */
import type { Completion, LanguageModel, Message, ToolCall, ToolSpec } from '../../lm/model.js';
import type { AnswerState, Sandbox } from '../../sandbox/sandbox.js';
import type { ForcedFinishSource } from '../../trace/events.js';
import { callWithDeadline } from '../loop/model-call.js';
import { type ForcedFinishState, forcedFinishMessage } from '../prompts/messages.js';
import { type FinalCandidate, looksLikeCode, parseReply } from '../protocols/fence/grammar.js';
import {
  finalCandidateOf,
  findFinalAction,
  parseToolCalls,
} from '../protocols/tools/tool-calls.js';
import { FINAL_ANSWER, finalAnswerTool } from '../protocols/tools/tool-specs.js';
import { MAX_ANSWER_CHARS } from './answer-limit.js';
import { isPlanLike, quotedName, readFinalValue } from './judge.js';
import { proseAnswer } from './prose-answer.js';

/** REPL variables a forced finish looks at (after the answer dict), in order. */
export const ANSWER_VARIABLES = ['final_answer', 'answer_text', 'result', 'final'] as const;

/**
 * Extra time a forced-finish request may take past the run's deadline. A run
 * therefore ends within max_timeout + FORCED_FINISH_GRACE_MS (plus the REPL
 * reads around it, well under a second).
 */
export const FORCED_FINISH_GRACE_MS = 30_000;
/** Output cap of the forced-finish request. */
export const FORCED_FINISH_MAX_TOKENS = 2048;
const PREVIEW_CHARS = 300;
const LAST_OUTPUT_CHARS = 1500;
/** The answer dict is shown at length: it is usually the answer the model meant to give. */
const ANSWER_PREVIEW_CHARS = 20_000;

export type ForcedReason =
  | ForcedFinishState['reason']
  | 'token_budget'
  | 'aborted'
  | 'endpoint_error';

export interface ForcedFinishInput {
  reason: ForcedReason;
  query: string;
  history: Message[];
  /** The REPL; undefined when it could not be used. */
  sandbox: Sandbox | undefined;
  lastOutput: string;
  /** Ask the model (false for a spent token budget, a cancelled run, a failed endpoint). */
  askModel: boolean;
  model: LanguageModel;
  deadline: number;
  now: () => number;
  timeoutMs: number;
  abortSignal?: AbortSignal;
  /** Tools protocol: offer the final_answer tool and accept a call to it. */
  finalTool?: boolean;
  /**
   * Whether a request fits the window. When the request with `history` does
   * not, it is built on `fallbackHistory` (the opening messages); when that
   * does not fit either, no request is made.
   */
  fits?: (messages: readonly Message[], tools: readonly ToolSpec[]) => boolean;
  fallbackHistory?: Message[];
}

export interface ForcedFinishOutcome {
  answer: string;
  source: ForcedFinishSource;
  variable?: string;
  /** The forced reply's content, when a request was made. */
  content?: string;
  completion?: Completion;
  /** Why the request failed, when it did. */
  error?: string;
  /** What the request was built on: the full history, the opening messages, or nothing (did not fit). */
  asked?: 'history' | 'opening' | 'none';
  /** Candidates passed over because they held more than MAX_ANSWER_CHARS characters. */
  tooLong?: TooLongCandidate[];
}

/** An answer candidate the forced finish refused for its size. */
export interface TooLongCandidate {
  source: ForcedFinishSource;
  variable?: string;
  /** Its full length in characters. */
  chars: number;
}

/** A candidate's text (cut at the limit where the REPL read it) and its full length. */
interface Candidate {
  text: string;
  chars: number;
  variable?: string;
}

/** Runs the forced finish; never throws. */
export async function forcedFinish(input: ForcedFinishInput): Promise<ForcedFinishOutcome> {
  const repl = await snapshot(input.sandbox);
  const tooLong: TooLongCandidate[] = [];
  // Every source goes through here: code is never an answer, and neither is text over the limit.
  const take = (source: ForcedFinishSource, c: Candidate | null): Candidate | null => {
    if (!c || !usable(c.text)) return null;
    if (c.chars > MAX_ANSWER_CHARS) {
      tooLong.push({
        source,
        chars: c.chars,
        ...(c.variable !== undefined ? { variable: c.variable } : {}),
      });
      return null;
    }
    return c;
  };
  const outcome = (
    source: ForcedFinishSource,
    c: Candidate,
    extra: Partial<ForcedFinishOutcome>,
  ) => ({
    answer: c.text,
    source,
    ...(c.variable !== undefined ? { variable: c.variable } : {}),
    ...extra,
    ...(tooLong.length > 0 ? { tooLong } : {}),
  });
  let completion: Completion | undefined;
  let error: string | undefined;
  let asked: ForcedFinishOutcome['asked'];
  if (input.askModel) {
    try {
      const request = forcedRequest(input, repl);
      asked = request.asked;
      if (!request.messages) throw new Error(NO_FIT);
      completion = await ask(input, request.messages);
      const fromModel =
        // A final_answer call (tools protocol) counts first, then FINAL / FINAL_VAR in the text.
        (input.finalTool
          ? take('model', await answerOf(toolCandidate(completion.toolCalls), input.sandbox))
          : null) ??
        take('model', await answerOf(parseReply(completion.content).final, input.sandbox));
      if (fromModel) {
        return outcome('model', fromModel, {
          content: completion.content,
          completion,
          ...(asked ? { asked } : {}),
        });
      }
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
  }
  const extra = {
    ...(completion ? { content: completion.content, completion } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(asked ? { asked } : {}),
  };
  const dict = repl.answer
    ? take('answer_dict', {
        text: repl.answer.content,
        chars: repl.answer.chars ?? repl.answer.content.length,
      })
    : null;
  if (dict) return outcome('answer_dict', dict, extra);
  for (const v of repl.variables) {
    const found = take('variable', { text: v.full, chars: v.chars, variable: v.name });
    if (found) return outcome('variable', found, extra);
  }
  const prose = completion ? proseAnswer(completion.content) : '';
  const fromProse = take('reply_text', { text: prose, chars: prose.length });
  if (fromProse) return outcome('reply_text', fromProse, extra);
  return outcome('empty', { text: '', chars: 0 }, extra);
}

function usable(text: string): boolean {
  return text.trim() !== '' && !looksLikeCode(text);
}

interface ReplSnapshot {
  answer: AnswerState | null;
  variables: { name: string; preview: string; full: string; chars: number }[];
}

async function snapshot(sandbox: Sandbox | undefined): Promise<ReplSnapshot> {
  const out: ReplSnapshot = { answer: null, variables: [] };
  if (!sandbox) return out;
  try {
    out.answer = await sandbox.readAnswer();
    for (const name of ANSWER_VARIABLES) {
      const value = await sandbox.getVariable(name, MAX_ANSWER_CHARS);
      if (value.exists && value.text !== undefined) {
        out.variables.push({
          name,
          preview: preview(value.text, value.chars ?? value.text.length),
          full: value.text,
          chars: value.chars ?? value.text.length,
        });
      }
    }
  } catch {
    // A dead REPL leaves only the model and the reply text.
  }
  return out;
}

/** The head of a REPL value, with its full size when it is longer. */
function preview(text: string, chars: number, limit = PREVIEW_CHARS): string {
  if (chars <= limit) return text;
  return `${text.slice(0, limit)}... [${chars.toLocaleString('en-US')} characters in all]`;
}

const NO_FIT =
  'the forced-finish request does not fit the context window, even with only the opening messages; no request was made';

/** The forced-finish messages on the full history, else the opening messages, else none. */
function forcedRequest(
  input: ForcedFinishInput,
  repl: ReplSnapshot,
): { messages?: Message[]; asked: NonNullable<ForcedFinishOutcome['asked']> } {
  const tools = input.finalTool ? [finalAnswerTool] : [];
  const full = forcedMessages(input, input.history, repl);
  if (!input.fits || input.fits(full, tools)) return { messages: full, asked: 'history' };
  if (input.fallbackHistory) {
    const opening = forcedMessages(input, input.fallbackHistory, repl);
    if (input.fits(opening, tools)) return { messages: opening, asked: 'opening' };
  }
  return { asked: 'none' };
}

function forcedMessages(
  input: ForcedFinishInput,
  history: readonly Message[],
  repl: ReplSnapshot,
): Message[] {
  const state: ForcedFinishState = {
    reason: input.reason as ForcedFinishState['reason'],
    query: input.query,
    // Previews only: a value of millions of characters would make the request unsendable.
    answerDict: repl.answer && {
      ready: repl.answer.ready,
      content: preview(
        repl.answer.content,
        repl.answer.chars ?? repl.answer.content.length,
        ANSWER_PREVIEW_CHARS,
      ),
    },
    variables: repl.variables.map(({ name, preview }) => ({ name, preview })),
    lastOutput: input.lastOutput.slice(-LAST_OUTPUT_CHARS),
  };
  const text = forcedFinishMessage(state);
  return [
    ...history,
    {
      role: 'user',
      content: input.finalTool ? `${text}\nYou may instead call final_answer.` : text,
    },
  ];
}

async function ask(input: ForcedFinishInput, messages: Message[]): Promise<Completion> {
  // One attempt, thinking off, capped at the time left plus a fixed grace.
  const deadline = Math.max(input.deadline, input.now()) + FORCED_FINISH_GRACE_MS;
  return callWithDeadline(
    input.model,
    {
      messages,
      thinking: false,
      maxTokens: FORCED_FINISH_MAX_TOKENS,
      ...(input.finalTool ? { tools: [finalAnswerTool] } : {}),
    },
    {
      deadline,
      now: input.now,
      timeoutMs: Math.min(input.timeoutMs, deadline - input.now()),
      ...(input.abortSignal ? { abortSignal: input.abortSignal } : {}),
    },
  );
}

/** The finish a final_answer call of the forced reply asks for (tools protocol). */
function toolCandidate(calls: readonly ToolCall[]): FinalCandidate | null {
  const finals = calls.filter((c) => c.name === FINAL_ANSWER);
  return finalCandidateOf(findFinalAction(parseToolCalls(finals)));
}

/**
 * The answer a forced reply's finish gives, from FINAL text or a final_answer
 * call alike: the text unless it is a plan, or the variable's value. Code in
 * the reply is never run.
 */
async function answerOf(
  candidate: FinalCandidate | null,
  sandbox: Sandbox | undefined,
): Promise<Candidate | null> {
  if (!candidate) return null;
  return candidate.kind === 'final'
    ? textAnswer(candidate.answer)
    : variableAnswer(candidate.variable, sandbox);
}

function textAnswer(answer: string): Candidate | null {
  return isPlanLike(answer) ? null : { text: answer, chars: answer.length };
}

async function variableAnswer(
  variable: string,
  sandbox: Sandbox | undefined,
): Promise<Candidate | null> {
  if (!sandbox) return null;
  try {
    const value = await readFinalValue(variable, sandbox);
    return value ? { text: value.text, chars: value.chars, variable: quotedName(variable) } : null;
  } catch {
    return null;
  }
}
