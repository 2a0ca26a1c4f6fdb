/**
 * Message text shared by every prompt version: the context description, the
 * turn line, REPL output and the forced-finish request.
 */
import type { ContextShape, ExecResult } from '../../sandbox/sandbox.js';
import { type HeadTail, keepHeadAndTail, uncut } from '../../util/head-tail.js';
import { fmt } from './format.js';

const MAX_PARTS_SHOWN = 50;

/** The opening user message: the context's shape (never its data) and the question. */
export function contextMessage(shape: ContextShape, query: string): string {
  const parts = shape.partLengths;
  const shown = parts.slice(0, MAX_PARTS_SHOWN).join(', ');
  const more =
    parts.length > MAX_PARTS_SHOWN ? `, ... ${fmt(parts.length - MAX_PARTS_SHOWN)} more` : '';
  const kind =
    shape.type === 'dict'
      ? `a dict of ${fmt(parts.length)} entries ({relative path: text})`
      : `a ${shape.type}`;
  return `The variable \`context\` holds ${kind} of ${fmt(shape.totalChars)} characters in total; part lengths: [${shown}${more}].

Question: ${query}`;
}

/** The line that opens each turn. */
export function turnLine(turn: number, maxTurns: number): string {
  return `Turn ${turn}/${maxTurns}.`;
}

/** A text over `limit` characters keeps its head and tail (80 short of it) around a note saying how much was cut. */
function cutToLimit(text: string, limit: number): HeadTail {
  if (text.length <= limit) return uncut(text);
  return keepHeadAndTail(
    text,
    Math.max(0, limit - 80),
    (cut) => `\n... [${fmt(cut)} characters cut] ...\n`,
  );
}

/** How one block's result is shown to the model. */
export function formatResult(index: number, result: ExecResult, limit: number): HeadTail {
  const body = formatResultBody(result, limit);
  return { ...body, text: `Output of block ${index + 1}:\n${body.text}` };
}

/** A block's result without its heading (the tools protocol's tool message), cut at `limit`. */
export function formatResultBody(result: ExecResult, limit: number): HeadTail {
  const parts: string[] = [];
  if (result.stdout !== '') parts.push(result.stdout.replace(/\n$/, ''));
  if (result.stdoutOverflow)
    parts.push(`[stdout: ${fmt(result.stdoutChars)} characters written, only the first part kept]`);
  if (result.stderr !== '') parts.push(`[stderr]\n${result.stderr.replace(/\n$/, '')}`);
  if (result.error) {
    const where = result.error.line !== undefined ? ` (line ${result.error.line})` : '';
    parts.push(`${result.error.type}: ${result.error.message}${where}`);
  }
  if (result.timedOut) parts.push('[the execution hit its time limit and was stopped]');
  if (result.restarted) {
    parts.push(
      `[the REPL was restarted (${result.restarted.reason}): every variable you made is gone; context was reloaded]`,
    );
  }
  const body = parts.length > 0 ? parts.join('\n') : '(no output)';
  return cutToLimit(body, limit);
}

/** The message of a block that did not run. */
export function skippedBlock(index: number, why: string): string {
  return `Block ${index + 1} was not run: ${why}.`;
}

/** What the forced-finish request shows about the REPL. */
export interface ForcedFinishState {
  reason: 'max_iterations' | 'max_timeout' | 'error_limit' | 'context_overflow';
  query: string;
  answerDict: { ready: boolean; content: string } | null;
  variables: { name: string; preview: string }[];
  lastOutput: string;
}

const REASON_TEXT: Record<ForcedFinishState['reason'], string> = {
  max_iterations: 'You have used all your turns.',
  max_timeout: 'The time for this run is up.',
  error_limit: 'Too many executions in a row have failed.',
  context_overflow: 'The conversation no longer fits in the model window.',
};

/** The single request that asks for an answer when a run must stop. */
export function forcedFinishMessage(s: ForcedFinishState): string {
  const lines = [
    `${REASON_TEXT[s.reason]} No more code will run. Answer the question now from what you have found.`,
    '',
    `Question: ${s.query}`,
  ];
  if (s.answerDict && s.answerDict.content !== '') {
    lines.push('', `answer["content"] currently holds:\n${s.answerDict.content}`);
  }
  for (const v of s.variables) lines.push('', `Variable ${v.name} holds:\n${v.preview}`);
  if (s.lastOutput !== '') lines.push('', `End of the last REPL output:\n${s.lastOutput}`);
  lines.push(
    '',
    'Reply with FINAL(your answer) on a line of its own, or FINAL_VAR(name) to answer with one of the variables above. Do not write code.',
  );
  return lines.join('\n');
}
