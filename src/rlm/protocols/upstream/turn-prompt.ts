/**
 * The per-turn user prompt of the upstream layout. It is rebuilt and sent as
 * the last message of every root request and never stored in the history.
 * The structure follows the upstream release (a first-turn safeguard, a
 * different opening later, the question restated); the wording is ours.
 */

export interface UpstreamTurnPromptOptions {
  /** The user's question, restated every turn. */
  query: string;
  /** 1-based turn number; turn 1 gets the safeguard. */
  turn: number;
}

const FIRST_TURN_SAFEGUARD =
  'You have not run anything in the REPL yet and have not looked at the context. ' +
  'Start by exploring it to work out how to answer; do not give a final answer yet.\n\n';

const LATER_TURN_OPENING = 'The conversation above is your work in the REPL environment so far. ';

function core(query: string): string {
  return (
    `Reason step by step about how to use the REPL environment to answer the question: "${query}".\n\n` +
    'The data is in the REPL as the `context` variable. Run code, including calls to sub-LLMs, ' +
    'by writing it in ```repl``` blocks, and keep going until you know the answer. ' +
    'What do you do next?'
  );
}

/** The user prompt for one turn. */
export function upstreamTurnPrompt(options: UpstreamTurnPromptOptions): string {
  const opening = options.turn <= 1 ? FIRST_TURN_SAFEGUARD : LATER_TURN_OPENING;
  return opening + core(options.query);
}
