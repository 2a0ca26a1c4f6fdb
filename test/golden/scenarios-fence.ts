/** Golden scenarios of the fence protocol: finishes, nudges, sub-calls, limits, cut replies. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ResolvedProfile } from '../../src/config/types.js';
import { allText, isForced, type Scenario, START, SUB_STEP_MS, writeText } from './scenario-kit.js';

const GREP = "```repl\nhits = grep(context, 'passphrase')\nprint(hits)\n```";
const CODE = '```repl\nprint("still going")\n```';

const profile: ResolvedProfile = {
  name: 'golden-profile',
  source: 'built-in',
  root: {
    baseUrl: 'http://127.0.0.1:9/v1',
    api: 'openai',
    apiKeyEnv: 'MY_SECRET_ENV',
    apiKeyCmd: 'pass show key',
    concurrency: 2,
    model: 'm',
    sampling: {},
  },
  sub: {
    baseUrl: 'http://127.0.0.1:9/v1',
    api: 'openai',
    concurrency: 2,
    model: 'm',
    sampling: {},
  },
  run: { maxIterations: 9 },
};

export const fenceScenarios: Scenario[] = [
  { name: 'grep-final', root: [GREP, 'FINAL(tangerine-42)'] },
  { name: 'nested-parens', root: ['FINAL(f(a, b))'] },
  {
    name: 'final-in-fence',
    root: ["```repl\nnote = 'FINAL(wrong)'\nprint(note)\n```", 'FINAL(right)'],
  },
  {
    name: 'final-with-code',
    root: ["```repl\nprint('computing')\n```\nFINAL(too early)", 'FINAL(after looking)'],
  },
  {
    name: 'final-var-same-reply',
    root: [
      "```repl\nfound = [l for l in context.splitlines() if 'passphrase' in l][0]\nprint(found)\n```\nFINAL_VAR(found)",
    ],
  },
  { name: 'final-var-missing', root: ['FINAL_VAR(nothing_here)', 'FINAL(fallback text)'] },
  {
    name: 'reverify',
    root: [
      "```repl\nsecret = 'tangerine-' + str(6 * 7)\n```",
      'FINAL_VAR(secret)',
      'FINAL_VAR(secret)',
    ],
  },
  {
    name: 'answer-dict',
    root: [
      "```repl\nanswer['content'] = 'tangerine-42'\nprint(answer['content'])\nanswer['ready'] = True\n```",
    ],
  },
  {
    name: 'answer-dict-unverified',
    root: [
      "```repl\nanswer['content'] = 'quiet'\nanswer['ready'] = True\n```",
      "```repl\nprint(answer['content'])\nanswer['ready'] = True\n```",
    ],
  },
  {
    name: 'final-var-answer-dict',
    root: [
      "```repl\nanswer['content'] = 'from the dict'\nprint(answer['content'])\n```",
      'FINAL_VAR(answer["content"])',
    ],
  },
  {
    name: 'tool-call-text',
    root: [
      '<tool_call>repl\n<arg_key>code</arg_key>\n<arg_value>x = 6 * 7\nprint(x)</arg_value></tool_call>\n```repl\n42\n```\nFINAL(made up)',
      'FINAL_VAR(x)',
    ],
  },
  {
    name: 'plan-final',
    root: [
      'FINAL(I will now search the context for the passphrase.)',
      'FINAL(I will answer: tangerine-42)',
    ],
  },
  {
    name: 'reasoning',
    root: [
      {
        content: '<think>INLINE-THOUGHT</think>```repl\nprint(1)\n```',
        reasoning: 'FIELD-THOUGHT',
      },
      'FINAL(done)',
    ],
  },
  { name: 'empty-final', root: ['FINAL("")', 'FINAL(ok)'] },
  { name: 'no-action', root: ['Thinking about it.', 'FINAL(x)'] },
  {
    name: 'python-fence-and-unclosed',
    root: ["```python\nx = 'py'\nprint(x)\n```\n```repl\ny = x + '!'\nprint(y)", 'FINAL_VAR(y)'],
  },
  {
    name: 'syntax-error-then-final',
    root: ['```repl\nprint(\n```', "```repl\nprint('fixed')\n```", 'FINAL(fixed)'],
  },
  // sub-calls
  {
    name: 'subcalls',
    root: [
      "```repl\na = llm_query('hello')\nb = llm_query_batched(['x', 'y', 'z'])\nprint(a, b)\n```",
      'FINAL(ok)',
    ],
    sub: (req) => `echo:${req.messages[0]?.content}`,
  },
  {
    name: 'subcall-cap',
    root: [
      "```repl\ntry:\n    llm_query_batched(['a'] * 5)\nexcept Exception as e:\n    print('capped:', e)\n```",
      'FINAL(ok)',
    ],
    options: () => ({ maxSubcallsPerExec: 4 }),
  },
  {
    name: 'subcall-run-cap',
    root: [
      "```repl\nr = [llm_query(str(i)) for i in range(2)]\ntry:\n    llm_query('third')\nexcept Exception as e:\n    print('capped:', e)\n```",
      'FINAL(ok)',
    ],
    options: () => ({ maxSubcallsPerRun: 2 }),
  },
  {
    name: 'decompose',
    root: ["```repl\nr = llm_query('Find it: ' + context)\nprint(r)\n```", 'FINAL(x)'],
    options: () => ({ subcallChars: 5000 }),
  },
  {
    name: 'sub-cut-retry',
    root: ["```repl\nprint(llm_query('q'))\n```", 'FINAL(ok)'],
    sub: [{ content: '', reasoning: 'long', finishReason: 'length' }, 'second try'],
  },
  {
    name: 'rlm-query-plain',
    root: ["```repl\nr = rlm_query('What is here?', 'some data')\nprint(r)\n```", 'FINAL(x)'],
    sub: 'plain answer',
  },
  {
    name: 'depth-2',
    context: ({ dir }) => writeText(dir, 'departments.txt', 'sales: 3 open\nsupport: 5 open\n'),
    root: (req) => {
      const text = allText(req);
      if (text.includes('Question: How many are open in support?')) {
        return text.includes('Output of block 1')
          ? 'FINAL_VAR(n)'
          : "```repl\nn = context.split('support: ')[1].split(' ')[0]\nprint(n)\n```";
      }
      return text.includes('Output of block 1')
        ? 'FINAL_VAR(child)'
        : "```repl\nchild = rlm_query('How many are open in support?', context)\nprint(child)\n```";
    },
    options: () => ({ maxDepth: 2 }),
  },
  {
    name: 'depth-2-dict-data',
    root: (req) => {
      const text = allText(req);
      if (text.includes('Question: Which keys?')) {
        return text.includes('Output of block 1')
          ? 'FINAL_VAR(keys)'
          : '```repl\nkeys = sorted(context)\nprint(keys)\n```';
      }
      return text.includes('Output of block 1')
        ? 'FINAL_VAR(got)'
        : "```repl\ngot = rlm_query('Which keys?', {'a.txt': 'one', 'b/c.txt': 'two'})\nprint(got)\n```";
    },
    options: () => ({ maxDepth: 2 }),
  },
  // cut replies
  {
    name: 'cut-empty',
    root: [{ content: '', reasoning: 'long thought', finishReason: 'length' }, 'FINAL(ok)'],
  },
  {
    name: 'cut-continue',
    root: [
      { content: 'Let me check.\n```repl\nx = 6 *', finishReason: 'length' },
      ' 7\nprint(x)\n```',
      'FINAL_VAR(x)',
    ],
  },
  {
    name: 'cut-v01',
    root: [{ content: 'Let me check.\n```repl\nx = 6 *', finishReason: 'length' }, 'FINAL(no)'],
    options: () => ({ promptVersion: 'v0.1' }),
  },
  // limits and the forced finish
  {
    name: 'max-iterations',
    root: (req) =>
      isForced(req) ? 'FINAL(forced answer)' : "```repl\nresult = 'stale'\nprint('working')\n```",
    options: () => ({ maxIterations: 3 }),
  },
  {
    name: 'forced-dict',
    root: (req) =>
      isForced(req) ? CODE : "```repl\nanswer['content'] = 'from dict'\nresult = 'from var'\n```",
    options: () => ({ maxIterations: 1 }),
  },
  {
    name: 'forced-variable',
    root: (req) => (isForced(req) ? CODE : "```repl\nfinal_answer = 'from var'\n```"),
    options: () => ({ maxIterations: 1 }),
  },
  {
    name: 'forced-final-var',
    root: (req) =>
      isForced(req) ? 'FINAL_VAR(kept)' : "```repl\nkept = 'kept value'\nprint(kept)\n```",
    options: () => ({ maxIterations: 1 }),
  },
  {
    name: 'forced-prose',
    root: (req) =>
      isForced(req)
        ? `<think>maybe</think>The passphrase is tangerine-42.\n${CODE}\n\`\`\`\ntable\n\`\`\``
        : '```repl\nx = 1\n```',
    options: () => ({ maxIterations: 1 }),
  },
  {
    name: 'forced-empty',
    root: (req) => (isForced(req) ? CODE : '```repl\nx = 1\n```'),
    options: () => ({ maxIterations: 1 }),
  },
  {
    name: 'error-limit',
    root: (req) => (isForced(req) ? 'FINAL(partial)' : '```repl\nraise ValueError("boom")\n```'),
    options: () => ({ maxErrors: 2 }),
  },
  {
    name: 'token-budget',
    root: "```repl\nanswer['content'] = 'partial from dict'\nprint('x')\n```",
    options: () => ({ tokenBudget: 30 }),
  },
  {
    name: 'deadline-subcall',
    root: (req) =>
      isForced(req)
        ? 'FINAL(done)'
        : "```repl\nfirst = llm_query('one')\ntry:\n    llm_query('two')\nexcept Exception as e:\n    print('refused:', e)\n```",
    sub: (_req, _i, env) => {
      env.advance(120_000 - SUB_STEP_MS);
      return 'ok';
    },
    options: () => ({ maxTimeout: 60 }),
  },
  {
    name: 'deadline-root',
    root: (req, _i, env) => {
      if (isForced(req)) return 'FINAL(late)';
      env.advance(40_000);
      return "```repl\nprint('slow turn')\n```";
    },
    options: () => ({ maxTimeout: 60 }),
  },
  // trajectory extras
  {
    name: 'profile-and-sft',
    root: ['```repl\nprint(len(context))\n```', 'FINAL(7)'],
    options: () => ({ profile, sft: true }),
  },
  {
    name: 'dict-context',
    context: ({ dir }) => {
      const docs = join(dir, 'docs');
      mkdirSync(docs);
      writeText(docs, 'a.txt', 'alpha secret-a');
      writeText(docs, 'b.txt', 'beta');
      return docs;
    },
    root: ['```repl\nprint(sorted(context))\n```', 'FINAL(two files)'],
  },
  {
    name: 'history-variable',
    root: [
      "```repl\nprint('x' * 3000)\n```",
      "```repl\nprint('second')\n```",
      "```repl\nprint(len(history), history[0] == 'x' * 3000, repr(history[-1]))\n```",
      'FINAL(done)',
    ],
    options: () => ({ outputTruncateChars: 500 }),
  },
  {
    name: 'long-output-cut',
    root: ["```repl\nprint('y' * 30000)\n```", 'FINAL(cut)'],
  },
  {
    name: 'prompt-v01-tools-off',
    root: ["```repl\nprint('v0.1')\n```", 'FINAL(v01)'],
    options: () => ({ promptVersion: 'v0.1', thinking: false, subThinking: true }),
  },
  {
    name: 'system-prompt-given',
    root: ['FINAL(custom)'],
    options: () => ({ systemPrompt: 'You are a custom prompt.\n' }),
  },
  {
    name: 'clock-start',
    root: ['FINAL(at start)'],
    options: () => ({ maxTimeout: 5, execTimeout: 2 }),
    query: `Started at ${new Date(START).toISOString()}?`,
  },
];
