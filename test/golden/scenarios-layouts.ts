/** Golden scenarios of the tools protocol and the upstream-rlm-v0 layout. */
import type { ToolCall } from '../../src/lm/model.js';
import type { ScriptedReply } from '../../src/testing/index.js';
import { isForced, type Scenario, writeText } from './scenario-kit.js';

const call = (id: string, name: string, args: unknown): ToolCall => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});
const tools = (...calls: ToolCall[]): ScriptedReply => ({ content: '', toolCalls: calls });
const TOOLS = () => ({ protocol: 'tools' as const });
const UPSTREAM = () => ({ plannerStyle: 'upstream-rlm-v0' });

export const layoutScenarios: Scenario[] = [
  {
    name: 'tools-e2e',
    root: [
      tools(
        call('c1', 'execute_python', { code: 'print(' }),
        call('c2', 'execute_python', {
          code: "hits = [l for l in context.splitlines() if 'passphrase' in l]\nprint(hits)",
        }),
      ),
      { content: "I'll keep it.\n```python\nfound = hits[0].split()[-1]\nprint(found)\n```" },
      tools(
        call('c3', 'final_answer', { answer: 'x', variable: 'found' }),
        call('c4', 'search', { q: 'passphrase' }),
      ),
      tools(call('c5', 'final_answer', '{"answer": "tangerine')),
      { content: 'FINAL(tangerine-42)' },
      tools(call('c6', 'final_answer', { variable: 'found' })),
    ],
    options: TOOLS,
  },
  {
    name: 'tools-refusals',
    root: [
      tools(
        call('a1', 'execute_python', { code: "answer_text = 'tangerine-42'\nprint(answer_text)" }),
        call('a2', 'final_answer', { answer: 'tangerine-42' }),
      ),
      tools(call('a3', 'final_answer', { variable: 'no_such_name' })),
      tools(
        call('', 'execute_python', { code: 'x = 1' }),
        call('', 'execute_python', { code: '' }),
      ),
      tools(call('a4', 'final_answer', { answer: 'I will look again.' })),
      tools(call('a5', 'final_answer', { answer: 'tangerine-42' })),
    ],
    options: TOOLS,
  },
  {
    name: 'tools-no-call',
    root: [
      { content: 'Let me think about the context first.' },
      tools(call('b1', 'final_answer', { answer: 'done' })),
    ],
    options: TOOLS,
  },
  {
    // A bare ``` fence (a table, a shell example) is not code: it is no slip, and the
    // run's one honoured slip is still there for the python fence that follows.
    name: 'tools-bare-fence',
    root: [
      { content: 'Here is what I know so far:\n```\n| line | text |\n| 700 | ? |\n```' },
      { content: '```python\nprint([l for l in context.splitlines() if "pass" in l])\n```' },
      tools(call('d1', 'final_answer', { answer: 'tangerine-42' })),
    ],
    options: TOOLS,
  },
  {
    name: 'tools-final-text-slip',
    root: [
      tools(call('e1', 'execute_python', { code: "v = 'seen'\nprint(v)" })),
      { content: 'FINAL_VAR(v)' },
    ],
    options: TOOLS,
  },
  {
    name: 'tools-forced',
    root: (req) =>
      isForced(req)
        ? tools(call('f2', 'final_answer', { answer: 'tangerine-42 (forced)' }))
        : tools(call('f1', 'execute_python', { code: "note = 'forced answer'\nprint(note)" })),
    options: () => ({ protocol: 'tools' as const, maxIterations: 1 }),
  },
  {
    name: 'tools-forced-variable',
    root: (req) =>
      isForced(req)
        ? tools(call('g2', 'final_answer', { variable: 'note' }))
        : tools(call('g1', 'execute_python', { code: "note = 'from note'\nprint(note)" })),
    options: () => ({ protocol: 'tools' as const, maxIterations: 1 }),
  },
  {
    name: 'upstream-layout',
    root: [
      'Let me look at the context.\n```repl\nn = len(context)\nprint(n)\n```\nThen a mistake:\n```repl   \nprint(missing_name)\n```',
      "```repl\nbig = 'a' * 25000\nprint(big)\n```",
      "```repl\nfinal_answer = [l for l in context.splitlines() if 'passphrase' in l][0]\nprint(final_answer)\n```\nFINAL_VAR(final_answer)",
    ],
    options: UPSTREAM,
  },
  {
    name: 'upstream-guards',
    root: ["```repl\nprint('ran')\n```\nFINAL(too early)", 'Nothing to do.', 'FINAL(tangerine-42)'],
    options: UPSTREAM,
  },
  {
    name: 'upstream-python-fence',
    root: [
      "```python\nseen = ['python-1']\n```\nthen\n```repl\nseen.append('repl')\n```\n```python\nseen.append('python-2')\nprint(seen)\n```",
      '```python\nprint(len(seen))\n```',
      'FINAL_VAR(seen)',
    ],
    options: UPSTREAM,
  },
  {
    name: 'upstream-no-answer-dict',
    root: [
      "```repl\nanswer = [l for l in context.splitlines() if 'passphrase' in l][0].split()[-1]\nprint(answer)\n```",
      'FINAL_VAR(answer)',
    ],
    options: UPSTREAM,
  },
  {
    name: 'upstream-answer-not-str',
    root: ['```repl\nanswer = 6 * 7\nprint(answer)\n```', 'FINAL_VAR(answer)', 'FINAL(42)'],
    options: UPSTREAM,
  },
  {
    name: 'upstream-prompt-file',
    root: ['FINAL(tangerine-42)'],
    options: ({ dir }) => ({
      plannerStyle: 'upstream-rlm-v0',
      systemPromptFile: writeText(
        dir,
        'prompt.txt',
        'You are a recursive planner.\n\nUse ```repl blocks.  \n',
      ),
    }),
  },
  {
    name: 'upstream-forced',
    root: (req) => (isForced(req) ? 'FINAL_VAR(best)' : "```repl\nbest = 'kept'\nprint(best)\n```"),
    options: () => ({ plannerStyle: 'upstream-rlm-v0', maxIterations: 1 }),
  },
];
