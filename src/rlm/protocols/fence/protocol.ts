/** The fence protocol as a RootProtocol: ```repl code, FINAL / FINAL_VAR text. */
import type { Message } from '../../../lm/model.js';
import { noActionNudge } from '../../finish/nudges.js';
import { contextMessage, formatResult, skippedBlock } from '../../prompts/messages.js';
import type { RootProtocol } from '../protocol.js';
import { parseReply } from './grammar.js';

export function createFenceProtocol(outputLimit: number): RootProtocol {
  return {
    answerDict: true,
    wording: 'fence',
    systemPrompt: (version, options) => version.system(options),
    opening: (shape, query, firstTurnLine) => [
      { role: 'user', content: `${contextMessage(shape, query)}\n\n${firstTurnLine}` },
    ],
    request: (history) => history.slice(),
    parse(content) {
      const parsed = parseReply(content);
      return {
        blocks: parsed.blocks,
        final: parsed.final,
        slips: parsed.toolCallFirst ? 1 : 0,
        rejectedFinals: 0,
        nudges: [],
        noAction: noActionNudge(),
        acted: false,
      };
    },
    async formatBlock(index, _code, result) {
      const shown = formatResult(index, result, outputLimit);
      return { message: shown.text, shown: shown.text, cutChars: shown.cut };
    },
    skippedBlock: (index, _code, why) => skippedBlock(index, why),
    closeTurn: (input) => fenceTurnMessages(input.content, input.outputs, input),
  };
}

/**
 * The fence layout of a turn: the reply, then (unless the run ended) the
 * outputs as one user message and each nudge as its own, with the next turn
 * line on the last one.
 */
export function fenceTurnMessages(
  content: string,
  outputs: readonly string[],
  input: {
    decision: { accepted: boolean } | null;
    nudges: { text: string }[];
    nextTurnLine: string;
  },
): Message[] {
  const out: Message[] = [{ role: 'assistant', content }];
  if (input.decision?.accepted === true) return out;
  const messages: string[] = [];
  if (outputs.length > 0) messages.push(outputs.join('\n\n'));
  for (const n of input.nudges) messages.push(n.text);
  if (messages.length === 0) messages.push('(no output)');
  const last = messages.length - 1;
  messages[last] = `${messages[last]}\n\n${input.nextTurnLine}`;
  for (const m of messages) out.push({ role: 'user', content: m });
  return out;
}
