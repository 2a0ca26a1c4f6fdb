/**
 * A root turn's trajectory record: the `iteration` event, and the result of
 * each block as it is stored in it.
 */
import type { ExecResult } from '../../sandbox/sandbox.js';
import type { BlockRecord, FinalDecision, IterationEvent } from '../../trace/events.js';
import { roundMs } from '../../trace/round-ms.js';
import type { Nudge } from '../prompts/nudges.js';
import type { ParsedTurn } from '../protocols/protocol.js';
import type { TurnReply } from './turn-reply.js';

export interface IterationInput {
  turn: number;
  /** The reply's content without thinking. */
  content: string;
  reply: TurnReply;
  parsed: ParsedTurn;
  blocks: BlockRecord[];
  nudges: Nudge[];
  decision: FinalDecision | null;
  timings: IterationEvent['timings'];
}

/** The `iteration` event of one root turn. */
export function iterationEvent(i: IterationInput): Omit<IterationEvent, 'v' | 't'> {
  const { completion } = i.reply;
  return {
    type: 'iteration',
    turn: i.turn,
    content: i.content,
    reasoning: i.reply.reasoning,
    blocks: i.blocks,
    nudges: i.nudges.map((n) => ({ kind: n.kind, text: n.text })),
    final: i.decision,
    endpoint: completion.endpoint,
    model: completion.model,
    usage: completion.usage,
    finishReason: completion.finishReason,
    timings: {
      modelMs: roundMs(i.timings.modelMs),
      replMs: roundMs(i.timings.replMs),
      harnessMs: roundMs(i.timings.harnessMs),
    },
    ...(i.reply.cut ? { cut: i.reply.cut } : {}),
    ...(completion.toolCalls.length > 0
      ? {
          toolCalls: completion.toolCalls.map(({ id, name, arguments: a }) => ({
            id,
            name,
            arguments: a,
          })),
        }
      : {}),
    ...(i.parsed.slip ? { protocolSlip: i.parsed.slip } : {}),
  };
}

/**
 * One executed block's result as the trajectory stores it; `cutChars` is how
 * much of it the display limit cut before the model saw it.
 */
export function blockResult(r: ExecResult, cutChars: number): NonNullable<BlockRecord['result']> {
  return {
    stdout: r.stdout,
    stderr: r.stderr,
    stdoutChars: r.stdoutChars,
    stderrChars: r.stderrChars,
    truncated: r.stdoutOverflow || r.stderrOverflow || cutChars > 0,
    ...(r.error
      ? {
          error: {
            type: r.error.type,
            message: r.error.message,
            ...(r.error.line !== undefined ? { line: r.error.line } : {}),
          },
        }
      : {}),
    elapsedMs: roundMs(r.elapsedMs),
    hostCalls: r.hostCalls,
    timedOut: r.timedOut,
    ...(r.restarted ? { restarted: `${r.restarted.reason}: ${r.restarted.detail}` } : {}),
  };
}
