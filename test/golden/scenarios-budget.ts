/**
 * Golden scenarios of the context budget (compaction, summaries, overflow),
 * the scripted eval policies through the harness, and one run over real HTTP.
 */
import { join } from 'node:path';
import type { ResolvedProfile, RoleSettings } from '../../src/config/types.js';
import { writeTaskContext } from '../../src/evals/context-file.js';
import {
  createScriptedPolicy,
  SCRIPTED_ROOT_MODEL,
  SCRIPTED_SUB_MODEL,
} from '../../src/evals/policies/scripted.js';
import { getTask } from '../../src/evals/tasks/index.js';
import type { RunOptions } from '../../src/rlm/run.js';
import type { ScriptedReply } from '../../src/testing/index.js';
import { isForced, policyReplies, type Scenario } from './scenario-kit.js';

/** A small window, so a dozen 2,000-character outputs need compaction. */
function smallWindow(contextTokens = 4096): ResolvedProfile {
  const role = (model: string): RoleSettings => ({
    baseUrl: 'http://127.0.0.1:9/v1',
    api: 'openai',
    concurrency: 2,
    model,
    maxTokens: 512,
    sampling: {},
    contextTokens,
  });
  return { name: 'small-window', source: 'test', root: role('r'), sub: role('s'), run: {} };
}

const NOTES = Array.from({ length: 4 }, (_, i) => `# note ${i}: keep scanning`).join('\n');
const printing = (n: number) =>
  `${NOTES}\n# step ${n}\nout = ''.join(chr(97 + (i * 7 + ${n}) % 26) for i in range(2000))\nprint(out)`;
const CHECK =
  "import hashlib\njoined = ''.join(history)\ncheck = f\"{len(history)} {len(joined)} {hashlib.sha256(joined.encode()).hexdigest()} {'history_1' in globals()}\"\nprint(check)";
const TURNS = 12;
const fence = (code: string) => `Next step.\n\`\`\`repl\n${code}\n\`\`\``;

function compactingReplies(
  shape: (code: string, n: number) => ScriptedReply,
  finish: ScriptedReply,
) {
  return (_req: unknown, index: number): ScriptedReply => {
    const n = index + 1;
    if (n < TURNS) return shape(printing(n), n);
    if (n === TURNS) return shape(CHECK, n);
    return finish;
  };
}

const SUMMARY = 'Summary: each turn printed 2,000 letters; nothing found yet.';

/** A built-in task instance through the scripted eval policies, played by ScriptedModels. */
function policyScenario(
  name: string,
  task: string,
  size: number,
  options: Partial<RunOptions> = {},
): Scenario {
  const instance = getTask(task).generate({ size, seed: 1 });
  const policy = createScriptedPolicy();
  return {
    name,
    query: instance.question,
    context: ({ dir }) => writeTaskContext(instance.context, join(dir, `${task}-${size}`)),
    root: policyReplies(policy, SCRIPTED_ROOT_MODEL),
    sub: policyReplies(policy, SCRIPTED_SUB_MODEL),
    options: () => options,
  };
}

export const budgetScenarios: Scenario[] = [
  {
    name: 'compaction-fence',
    root: compactingReplies((code) => fence(code), 'FINAL_VAR(check)'),
    sub: SUMMARY,
    options: () => ({
      profile: smallWindow(),
      maxIterations: 20,
      outputTruncateChars: 2500,
      compactionThresholdPct: 0.6,
    }),
  },
  {
    name: 'compaction-tools',
    root: compactingReplies(
      (code, n) => ({
        content: '',
        toolCalls: [{ id: `c${n}`, name: 'execute_python', arguments: JSON.stringify({ code }) }],
      }),
      {
        content: '',
        toolCalls: [{ id: 'cf', name: 'final_answer', arguments: '{"variable": "check"}' }],
      },
    ),
    sub: SUMMARY,
    options: () => ({
      profile: smallWindow(),
      protocol: 'tools',
      outputTruncateChars: 2500,
      compactionThresholdPct: 0.5,
    }),
  },
  {
    name: 'compaction-upstream',
    root: compactingReplies((code) => fence(code), 'FINAL_VAR(check)'),
    sub: SUMMARY,
    options: () => ({
      profile: smallWindow(),
      plannerStyle: 'upstream-rlm-v0',
      compactionThresholdPct: 0.5,
    }),
  },
  {
    name: 'compaction-summary-fails',
    root: compactingReplies((code) => fence(code), 'FINAL_VAR(check)'),
    sub: () => {
      throw new Error('the summary model is down');
    },
    options: () => ({ profile: smallWindow(), outputTruncateChars: 2500 }),
  },
  {
    name: 'overflow-no-call',
    root: 'FINAL(should not be asked)',
    options: () => ({ profile: smallWindow(256) }),
  },
  {
    name: 'overflow-opening',
    root: (req, index) => {
      if (isForced(req)) return 'I could not finish.';
      if (index > 0) return 'FINAL(should not be asked)';
      const huge = `${'# keep reading\n'.repeat(1_200)}answer['content'] = 'tangerine-42'\nprint('noted')`;
      return fence(huge);
    },
    options: () => ({ profile: smallWindow() }),
  },
  policyScenario('policy-needle', 'needle', 2000),
  policyScenario('policy-needle-tools', 'needle', 2000, { protocol: 'tools' }),
  policyScenario('policy-needle-upstream', 'needle', 2000, { plannerStyle: 'upstream-rlm-v0' }),
  policyScenario('policy-oolong', 'oolong-lite', 40),
  policyScenario('policy-oolong-tools', 'oolong-lite', 40, { protocol: 'tools' }),
  policyScenario('policy-longdoc', 'longdoc-qa', 30),
  policyScenario('policy-nested', 'nested', 3),
  policyScenario('policy-nested-depth-2', 'nested', 3, { maxDepth: 2 }),
  {
    name: 'http-think-tags',
    http: {
      policy: (r) => {
        if (r.model !== 'root-model') return { content: 'sub via http', reasoning: 'sub thought' };
        if (isForced(r)) return 'FINAL(forced)';
        const turn = r.messages.filter((m) => m.role === 'assistant').length;
        if (turn === 0) {
          return {
            content: "\n```repl\nprint(llm_query('hi'))\n```",
            reasoning: 'look first',
            reasoningAs: 'think-tags',
          };
        }
        return { content: 'FINAL(over http)', reasoning: 'done', reasoningAs: 'field' };
      },
    },
  },
  {
    name: 'http-tools',
    http: {
      policy: (r) => {
        if (r.model !== 'root-model') return 'sub';
        const turn = r.messages.filter((m) => m.role === 'assistant').length;
        const args = turn === 0 ? { code: "x = 'via tools'\nprint(x)" } : { variable: 'x' };
        const name = turn === 0 ? 'execute_python' : 'final_answer';
        return {
          content: '',
          toolCalls: [{ id: `h${turn}`, name, arguments: JSON.stringify(args) }],
        };
      },
    },
    options: () => ({ protocol: 'tools' }),
  },
];
