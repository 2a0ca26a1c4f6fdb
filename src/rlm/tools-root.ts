/**
 * The tools protocol as a RootProtocol. The model acts through
 * `execute_python` and `final_answer` calls; every call gets its own tool
 * message (its output, or why it was refused), then one user message carries
 * the notes and the next turn line. A reply that writes code or FINAL as text
 * is acted on once per run (a protocol slip) with the fence rules.
 */
import type { Message, ToolCall } from '../lm/model.js';
import type { CodeBlock, FinalCandidate } from './fence.js';
import { parseReply } from './fence.js';
import { MAX_ANSWER_CHARS, type RejectDetail, type RejectReason } from './finish.js';
import type { Nudge } from './nudges.js';
import {
  contextMessage,
  formatResult,
  formatResultBody,
  skippedBlock,
} from './prompts/messages.js';
import type { CloseTurnInput, ParsedTurn, RootProtocol } from './root-protocol.js';
import { closingUserText, normalizeToolCallIds } from './tools-messages.js';
import { findFinalAction, parseToolCalls, rootTools, type ToolAction } from './tools-protocol.js';
import { decideNoToolCall } from './tools-slip.js';

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
    systemPrompt: (version, options) => version.system({ ...options, protocol: 'tools' }),
    opening: (shape, query, firstTurnLine) => [
      { role: 'user', content: `${contextMessage(shape, query)}\n\n${firstTurnLine}` },
    ],
    request: (history) => history.slice(),
    parse(content, toolCalls, turn): ParsedTurn {
      textMode = toolCalls.length === 0;
      if (!textMode) return parseCalls(normalizeToolCallIds(toolCalls, turn));
      const decision = decideNoToolCall(content, slipsHonoured);
      const note: Nudge = {
        kind: decision.kind === 'honour' ? 'protocol_slip' : 'no_action',
        text: decision.note,
      };
      if (decision.kind === 'honour') {
        slipsHonoured++;
        const parsed = parseReply(content);
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
      return { message: textMode ? formatResult(index, result, outputLimit) : body, shown: body };
    },
    skippedBlock: (index, _code, why) => skippedBlock(index, why),
    rejectNudge: toolsRejectNudge,
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
  const found = findFinalAction(actions);
  let final: FinalCandidate | null = null;
  if (found?.kind === 'final') final = { kind: 'final', answer: found.answer, viaToolCall: true };
  if (found?.kind === 'final_var') {
    final = { kind: 'final_var', variable: found.variable, viaToolCall: true };
  }
  const detail: ToolDetail = { mode: 'tools', calls, actions };
  return {
    blocks,
    final,
    finalKind: 'final_answer_tool',
    slips: 0,
    rejectedFinals: actions.filter((a) => a.kind === 'rejected' && a.wasFinal).length,
    nudges: [],
    noAction: {
      kind: 'no_action',
      text: 'None of your tool calls could be carried out (see the tool results). Call execute_python to run code, or final_answer to finish.',
    },
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
      text = 'Accepted. The run ends with this answer.';
    } else {
      text = input.finalNudge?.text ?? 'final_answer was not accepted.';
    }
    out.push({ role: 'tool', toolCallId: action.call.id, content: text });
  }
  const notes = input.nudges.filter((n) => n !== input.finalNudge).map((n) => n.text);
  out.push({ role: 'user', content: closingUserText(notes, input.nextTurnLine) });
  return out;
}

/** Why a final_answer call was refused, in tools terms. */
export function toolsRejectNudge(reason: RejectReason, detail: RejectDetail): Nudge {
  switch (reason) {
    case 'code_not_run':
      return {
        kind: 'rejected_final',
        text: 'final_answer was not accepted: it came in the same reply as code that had not run yet. Read the output, then call final_answer on its own.',
      };
    case 'missing_variable':
      return {
        kind: 'rejected_final',
        text: `final_answer was not accepted: there is no REPL variable named ${detail.variable ?? ''}. Assign the answer to a variable with execute_python first, or pass the text as \`answer\`.`,
      };
    case 'empty':
      return {
        kind: 'rejected_final',
        text: 'final_answer was not accepted: the answer was empty. Give the answer itself.',
      };
    case 'plan_like':
      return {
        kind: 'plan_final',
        text: 'final_answer was not accepted: it describes work still to do rather than giving an answer. Do the work with execute_python first; the answer must be the answer itself.',
      };
    case 'unverified':
      return {
        kind: 'reverify',
        text: `Before finishing, print the value you are about to return${detail.variable ? ` (${detail.variable})` : ''} with execute_python and check that it answers the question. If it does, call final_answer again.`,
      };
    case 'too_long':
      return {
        kind: 'rejected_final',
        text: `final_answer was not accepted: the answer${detail.variable ? ` (${detail.variable})` : ''} holds ${(detail.chars ?? 0).toLocaleString('en-US')} characters, more than the ${MAX_ANSWER_CHARS.toLocaleString('en-US')} an answer may have. Call final_answer with a shorter answer: the part that answers the question, or a summary.`,
      };
  }
}
