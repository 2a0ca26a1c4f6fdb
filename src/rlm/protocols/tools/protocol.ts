/**
 * The tools protocol as a RootProtocol. The model acts through
 * `execute_python` and `final_answer` calls; every call gets its own tool
 * message (its output, or why it was refused), then one user message carries
 * the notes and the next turn line. A reply that writes code or FINAL as text
 * is acted on once per run (a protocol slip) with the fence rules.
 */
import type { Message, ToolCall } from '../../../lm/model.js';
import {
  contextMessage,
  formatResult,
  formatResultBody,
  skippedBlock,
} from '../../prompts/messages.js';
import {
  FINAL_ACCEPTED_TEXT,
  FINAL_REFUSED_TEXT,
  NO_CALL_CARRIED_OUT_TEXT,
  type Nudge,
} from '../../prompts/nudges.js';
import { type CodeBlock, parseReply } from '../fence/grammar.js';
import type { CloseTurnInput, ParsedTurn, RootProtocol } from '../protocol.js';
import { closingUserText, normalizeToolCallIds } from './messages.js';
import { decideNoToolCall } from './slip.js';
import {
  finalCandidateOf,
  findFinalAction,
  parseToolCalls,
  type ToolAction,
} from './tool-calls.js';
import { rootTools } from './tool-specs.js';

interface ToolDetail {
  mode: 'tools';
  calls: ToolCall[];
  actions: ToolAction[];
}

/** Creates the protocol for one loop (it remembers whether a slip was honoured). */
export function createToolsProtocol(outputLimit: number): RootProtocol {
  let slipsHonoured = 0;
  // Outputs go into tool messages (no heading), or in fence form for a slipped reply.
  let textMode = false;
  return {
    tools: [...rootTools],
    answerDict: true,
    wording: 'tools',
    systemPrompt: (version, options) => version.system({ ...options, protocol: 'tools' }),
    opening: (shape, query, firstTurnLine) => [
      { role: 'user', content: `${contextMessage(shape, query)}\n\n${firstTurnLine}` },
    ],
    request: (history) => history.slice(),
    parse(content, toolCalls, turn): ParsedTurn {
      textMode = toolCalls.length === 0;
      if (!textMode) return parseCalls(normalizeToolCallIds(toolCalls, turn));
      const parsed = parseReply(content);
      const decision = decideNoToolCall(parsed, slipsHonoured);
      const note: Nudge = {
        kind: decision.kind === 'honour' ? 'protocol_slip' : 'no_action',
        text: decision.note,
      };
      if (decision.kind === 'honour') {
        slipsHonoured++;
        return {
          blocks: parsed.blocks,
          final: parsed.final,
          slips: 1,
          rejectedFinals: 0,
          nudges: [note],
          noAction: note,
          acted: false,
          slip: { kind: decision.slip, honoured: true },
        };
      }
      return {
        blocks: [],
        final: null,
        slips: 0,
        rejectedFinals: 0,
        nudges: [],
        noAction: note,
        acted: false,
        ...(decision.slip ? { slip: { kind: decision.slip, honoured: false } } : {}),
      };
    },
    async formatBlock(index, _code, result) {
      const body = formatResultBody(result, outputLimit);
      const message = textMode ? formatResult(index, result, outputLimit).text : body.text;
      return { message, shown: body.text, cutChars: body.cut };
    },
    skippedBlock: (index, _code, why) => skippedBlock(index, why),
    closeTurn(input) {
      const detail = input.parsed.detail as ToolDetail | undefined;
      if (!detail) {
        // A reply without tool calls: the text, then one user message (outputs, notes, turn line).
        const out: Message[] = [{ role: 'assistant', content: input.content }];
        if (input.decision?.accepted) return out;
        const notes = [...input.outputs, ...input.nudges.map((n) => n.text)];
        out.push({ role: 'user', content: closingUserText(notes, input.nextTurnLine) });
        return out;
      }
      return toolMessages(input, detail);
    },
  };
}

function parseCalls(calls: ToolCall[]): ParsedTurn {
  const actions = parseToolCalls(calls);
  const blocks: CodeBlock[] = [];
  for (const a of actions) {
    if (a.kind === 'execute') blocks.push({ code: a.code, source: 'fence', complete: true });
  }
  const final = finalCandidateOf(findFinalAction(actions));
  const detail: ToolDetail = { mode: 'tools', calls, actions };
  return {
    blocks,
    final,
    finalKind: 'final_answer_tool',
    slips: 0,
    rejectedFinals: actions.filter((a) => a.kind === 'rejected' && a.wasFinal).length,
    nudges: [],
    noAction: { kind: 'no_action', text: NO_CALL_CARRIED_OUT_TEXT },
    acted: true,
    detail,
  };
}

/** Assistant message with its calls, one tool message per call in order, then notes and the turn line. */
function toolMessages(input: CloseTurnInput, detail: ToolDetail): Message[] {
  const out: Message[] = [{ role: 'assistant', content: input.content, toolCalls: detail.calls }];
  let block = 0;
  for (const action of detail.actions) {
    let text: string;
    if (action.kind === 'execute') {
      text = input.outputs[block] ?? '(not run)';
      block++;
    } else if (action.kind === 'rejected') {
      text = action.reason;
    } else if (input.decision?.accepted) {
      text = FINAL_ACCEPTED_TEXT;
    } else {
      text = input.finalNudge?.text ?? FINAL_REFUSED_TEXT;
    }
    out.push({ role: 'tool', toolCallId: action.call.id, content: text });
  }
  const notes = input.nudges.filter((n) => n !== input.finalNudge).map((n) => n.text);
  out.push({ role: 'user', content: closingUserText(notes, input.nextTurnLine) });
  return out;
}
