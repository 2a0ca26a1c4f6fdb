/** A read frame's tool round: the calls run (bounded), their results appended and traced. */
import type { Completion } from '../lm/model.js';
import { type Conversation, type FrameTools, link, type ToolOutcome } from './frame-types.js';

/** Most tool calls carried out in one round; the rest get an error result. */
export const MAX_CALLS_PER_ROUND = 8;
/** Most characters of a tool result shown to the model. */
export const MAX_TOOL_RESULT_CHARS = 20_000;

/** Runs one round of tool calls (at most MAX_CALLS_PER_ROUND) and appends their results. */
export async function toolRound(
  c: Conversation,
  tools: FrameTools,
  completion: Completion,
): Promise<void> {
  const { state, messages } = c;
  state.rounds += 1;
  const round = state.rounds;
  messages.push({
    role: 'assistant',
    content: completion.content,
    toolCalls: completion.toolCalls,
  });
  const outcomes = await Promise.all(
    completion.toolCalls.map((call, index): Promise<ToolOutcome> => {
      if (index >= MAX_CALLS_PER_ROUND) {
        return Promise.resolve({
          ok: false,
          result: `Not run: at most ${MAX_CALLS_PER_ROUND} tool calls are carried out per round.`,
        });
      }
      return tools.run(call).catch((error: unknown) => ({
        ok: false,
        result: `The tool failed: ${error instanceof Error ? error.message : String(error)}`,
      }));
    }),
  );
  for (const [index, call] of completion.toolCalls.entries()) {
    const outcome = outcomes[index] ?? { ok: false, result: 'no result' };
    const shown = boundResult(outcome.result);
    messages.push({ role: 'tool', toolCallId: call.id, content: shown });
    state.recent.add('tool', shown);
    c.writer.write({
      type: 'tool',
      round,
      call,
      ok: outcome.ok,
      result: shown,
      resultChars: outcome.result.length,
      ...(outcome.childIds && outcome.childIds.length > 0 ? { childIds: outcome.childIds } : {}),
    });
    c.tree.emit({
      type: 'tool',
      traceId: c.traceId,
      ...link(c.tree),
      elapsedMs: c.tree.elapsedMs(),
      round,
      name: call.name,
      ok: outcome.ok,
    });
  }
}

function boundResult(text: string): string {
  if (text.length <= MAX_TOOL_RESULT_CHARS) return text;
  return `${text.slice(0, MAX_TOOL_RESULT_CHARS)}\n[... ${text.length - MAX_TOOL_RESULT_CHARS} more characters not shown; ask for a smaller piece]`;
}
