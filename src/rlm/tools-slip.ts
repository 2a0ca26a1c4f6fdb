/**
 * Protocol slips under the tools protocol: a reply with no tool call that
 * writes its action as text instead (a fenced code block, a text-form
 * `<tool_call>`, or FINAL(...) / FINAL_VAR(...) at the start of a line).
 * The first slip of a run is honoured (the loop parses and acts on the text as
 * the fence protocol would); later ones only get a nudge. Every slip is logged.
 */

/** What a slipped reply wrote as text. */
export type SlipKind = 'code' | 'final';

const FENCE_OPEN = /^[ \t]*```[ \t]*(?:repl|python|py|python3)?[ \t]*\r?\n/im;
const TEXT_TOOL_CALL = /<tool_call>\s*(?:repl|python|execute_python)\b/i;
const FINAL_TEXT = /^[ \t]*(?:FINAL|FINAL_VAR)[ \t]*\(/m;

/** Detect an action written as text. Code wins when both appear (the fence rules then apply). */
export function detectSlip(content: string): SlipKind | null {
  if (FENCE_OPEN.test(content) || TEXT_TOOL_CALL.test(content)) return 'code';
  if (FINAL_TEXT.test(content)) return 'final';
  return null;
}

/** What the loop does with a reply that made no tool call. */
export type NoToolCallDecision =
  /** Act on the text once, as the fence protocol would, and log a slip. */
  | { kind: 'honour'; slip: SlipKind; note: string }
  /** Do nothing but tell the model; `slip` is set when the reply was a (second or later) slip. */
  | { kind: 'nudge'; slip: SlipKind | null; note: string };

/**
 * Decide how to handle a reply without tool calls.
 * @param content the reply's visible text.
 * @param slipsHonoured how many slips this run has already honoured.
 */
export function decideNoToolCall(content: string, slipsHonoured: number): NoToolCallDecision {
  const slip = detectSlip(content);
  if (slip !== null && slipsHonoured === 0) {
    const what = slip === 'code' ? 'code as text' : 'FINAL as text';
    return {
      kind: 'honour',
      slip,
      note:
        `Your reply wrote ${what} instead of calling a tool. It was accepted this once; ` +
        'from now on act only through execute_python and final_answer calls.',
    };
  }
  if (slip !== null) {
    return {
      kind: 'nudge',
      slip,
      note:
        'Your reply wrote its action as text again, so nothing ran. Call execute_python to run ' +
        'code, or final_answer to finish.',
    };
  }
  return {
    kind: 'nudge',
    slip: null,
    note:
      'Your reply made no tool call, so nothing happened. Call execute_python to run code in ' +
      'the REPL, or final_answer when you have the answer.',
  };
}
