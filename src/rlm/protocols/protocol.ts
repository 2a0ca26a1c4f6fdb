/**
 * How the root model acts, as the loop sees it: which messages open the run
 * and go out each turn, how a reply becomes code and a finish candidate, how
 * results are shown, and what a turn appends to the history. Three
 * implementations: the fence protocol, the tools protocol and the upstream
 * RLM layout (`planner_style = "upstream-rlm-v0"`).
 */
import type { Message, ToolCall, ToolSpec } from '../../lm/model.js';
import type { ContextShape, ExecResult, Sandbox } from '../../sandbox/sandbox.js';
import type { FinalDecision } from '../../trace/events.js';
import type { Nudge, NudgeWording } from '../prompts/nudges.js';
import type { PromptVersion, SystemPromptOptions } from '../prompts/types.js';
import type { CodeBlock, FinalCandidate } from './fence/grammar.js';
import type { SlipKind } from './tools/slip.js';

/** One reply, read by the protocol. */
export interface ParsedTurn {
  /** Code to run, in order. */
  blocks: CodeBlock[];
  /** The finish to judge, if any. */
  final: FinalCandidate | null;
  /** Decision kind to record for the final (tools: `final_answer_tool`); default from the judge. */
  finalKind?: FinalDecision['kind'];
  /** Protocol slips this reply made that the loop's no-action rule does not count. */
  slips: number;
  /** Finish attempts refused before judging (a malformed `final_answer` call). */
  rejectedFinals: number;
  /** Notes the protocol adds for this reply (e.g. that a slip was honoured). */
  nudges: Nudge[];
  /** The nudge for a reply that turns out to do nothing. */
  noAction: Nudge;
  /** The reply made an action even if nothing ran (tools: any tool call). */
  acted: boolean;
  /** What to log about a protocol slip. */
  slip?: { kind: SlipKind; honoured: boolean };
  /** Protocol-private details for `closeTurn`. */
  detail?: unknown;
}

/** How one executed block is shown: the message text, and the part the model "saw" as output. */
export interface BlockOutput {
  message: string;
  /** The output alone (no echoed code), for the re-verify check. */
  shown: string;
  /** Characters of the output the display limit cut (the record's `truncated`). */
  cutChars: number;
}

export interface CloseTurnInput {
  content: string;
  parsed: ParsedTurn;
  /** One entry per block, run or skipped, in order. */
  outputs: string[];
  decision: FinalDecision | null;
  /** The nudge that came from judging the final, if any (also in `nudges`). */
  finalNudge: Nudge | null;
  /** Every nudge of the turn, in order. */
  nudges: Nudge[];
  /** The next turn line (`Turn i/N.`). */
  nextTurnLine: string;
}

export interface RootProtocol {
  /** Tools sent with every root request (tools protocol only). */
  readonly tools?: ToolSpec[];
  /** Whether a ready `answer` dict ends the run. */
  readonly answerDict: boolean;
  /** The words of its nudges: FINAL text, or the final_answer tool. */
  readonly wording: NudgeWording;
  /** The built-in system prompt. */
  systemPrompt(version: PromptVersion, options: SystemPromptOptions): string;
  /** Messages after the system prompt that open the stored history. */
  opening(shape: ContextShape, query: string, firstTurnLine: string): Message[];
  /** The messages of one root request, from the stored history. */
  request(history: readonly Message[], turn: number): Message[];
  /** Reads a reply. */
  parse(content: string, toolCalls: readonly ToolCall[], turn: number): ParsedTurn;
  /** Shows one executed block. */
  formatBlock(
    index: number,
    code: string,
    result: ExecResult,
    sandbox: Sandbox,
  ): Promise<BlockOutput>;
  /** Shows a block that did not run. */
  skippedBlock(index: number, code: string, why: string): string;
  /** What the turn appends to the stored history. */
  closeTurn(input: CloseTurnInput): Message[];
}
