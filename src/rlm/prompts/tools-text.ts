/**
 * The two paragraphs of a root prompt that change under the tools protocol:
 * how code runs and how the run ends. Every other paragraph is shared with
 * the fence protocol, so its examples show code as it would go in `code`.
 */
import { fmt } from './format.js';

/** How to run code, for the tools protocol. */
export function toolsRunText(options: {
  outputTruncateChars: number;
  execTimeoutSeconds: number;
}): string {
  return `Run code by calling the \`execute_python\` tool with the source in its \`code\` argument; the tool returns what the code printed and any error. Several calls in one reply run in order. Output longer than ${fmt(options.outputTruncateChars)} characters is cut in the middle, so print summaries, counts and short slices rather than whole documents. One execution may run for ${fmt(options.execTimeoutSeconds)} seconds. The examples below show code as you would pass it to execute_python; do not write code blocks in your reply text.`;
}

/** How to finish, for the tools protocol. */
export const TOOLS_FINISH_TEXT =
  'To finish, call the `final_answer` tool with exactly one argument: `answer` with the answer text, or `variable` with the name of a REPL variable that holds it. Call it on its own, in a reply without execute_python, once you have seen the output that supports the answer. Give the answer itself, not a description of what you would do next.';
