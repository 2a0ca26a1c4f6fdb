/**
 * The two tools the root model gets under the tools protocol, as they are
 * sent with every root request: `execute_python(code)` and
 * `final_answer(answer | variable)`.
 */
import type { ToolSpec } from '../../../lm/model.js';

export const EXECUTE_PYTHON = 'execute_python';
export const FINAL_ANSWER = 'final_answer';

/** Runs code in the persistent REPL. */
export const executePythonTool: ToolSpec = {
  name: EXECUTE_PYTHON,
  description:
    'Run Python code in the persistent REPL. The `context` variable and the llm_query helpers ' +
    'are already defined, and variables you create stay for later calls. Returns what the ' +
    'code printed (cut when long) and any error.',
  parameters: {
    type: 'object',
    properties: {
      code: { type: 'string', description: 'The Python source to run.' },
    },
    required: ['code'],
    additionalProperties: false,
  },
};

/** Ends the run with an answer, given as text or as the name of a REPL variable. */
export const finalAnswerTool: ToolSpec = {
  name: FINAL_ANSWER,
  description:
    'Finish with your answer to the question. Give exactly one argument: `answer` with the ' +
    'answer text, or `variable` with the name of a REPL variable that holds it. Call it on ' +
    'its own, after you have seen the output that supports the answer.',
  parameters: {
    type: 'object',
    properties: {
      answer: { type: 'string', description: 'The final answer, written out in full.' },
      variable: {
        type: 'string',
        description: 'Name of an existing REPL variable whose value is the final answer.',
      },
    },
    additionalProperties: false,
  },
};

/** The tools the root model gets under the tools protocol, in the order they are sent. */
export const rootTools: readonly ToolSpec[] = [executePythonTool, finalAnswerTool];
