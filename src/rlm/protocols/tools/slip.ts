/**
 * Protocol slips under the tools protocol: a reply with no tool call that
 * writes its action as text instead: code the fence grammar would run (a
 * ```repl / ```python block, a text-form `<tool_call>`), or FINAL(...) /
 * FINAL_VAR(...) at the start of a line. A fence that would not run (a bare
 * ``` table, a shell example) is no slip. The first slip of a run is
 * honoured (acted on as the fence protocol would); later ones only get a
 * nudge. Every slip is logged.
 */

import { NO_TOOL_CALL_TEXT, SLIP_AGAIN_TEXT, slipHonouredText } from '../../prompts/nudges.js';
import type { ParsedReply } from '../fence/grammar.js';

/** What a slipped reply wrote as text. */
export type SlipKind = 'code' | 'final';

/** The action a reply wrote as text, read by the fence grammar. Code wins when both appear. */
export function detectSlip(parsed: ParsedReply): SlipKind | null {
  if (parsed.blocks.length > 0) return 'code';
  if (parsed.final) return 'final';
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
 * @param parsed the reply's text, read by the fence grammar.
 * @param slipsHonoured how many slips this run has already honoured.
 */
export function decideNoToolCall(parsed: ParsedReply, slipsHonoured: number): NoToolCallDecision {
  const slip = detectSlip(parsed);
  if (slip !== null && slipsHonoured === 0) {
    return { kind: 'honour', slip, note: slipHonouredText(slip) };
  }
  if (slip !== null) return { kind: 'nudge', slip, note: SLIP_AGAIN_TEXT };
  return { kind: 'nudge', slip: null, note: NO_TOOL_CALL_TEXT };
}
