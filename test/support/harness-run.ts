import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { GenerateRequest } from '../../src/lm/model.js';
import { type RunResult, run } from '../../src/rlm/run.js';
import { ScriptedModel } from '../../src/testing/index.js';

const CHILD_QUESTION = 'How many complaints are still open in support?';

const text = (req: GenerateRequest) => req.messages.map((m) => m.content).join('\n');

/**
 * Runs the real harness (loop, Python REPL, trajectory writer) at depth 2 with
 * scripted answers: batched sub-calls, a child RLM with its own llm_query, a
 * failing block, and no final answer within three turns, so the run ends in a
 * forced finish. Returns the result and the trajectory's file name.
 */
export async function writeHarnessRun(dir: string): Promise<{ result: RunResult; file: string }> {
  const context = join(dir, 'departments.txt');
  writeFileSync(
    context,
    [
      'sales: OPEN #1 printer jams',
      'sales: CLOSE #1',
      'support: OPEN #2 badge reader broken',
      'support: OPEN #3 heating off',
      'support: CLOSE #3',
      'facilities: OPEN #4 leaking tap',
    ].join('\n'),
  );
  let rootTurn = 0;
  const root = new ScriptedModel({
    modelId: 'root-model',
    endpoint: 'scripted://root',
    replies: (req) => {
      const all = text(req);
      if (all.includes(`Question: ${CHILD_QUESTION}`)) {
        return all.includes('Output of block 1')
          ? { content: 'FINAL_VAR(n)', reasoning: 'The child has its count.' }
          : {
              content:
                "Counting in the support lines.\n\n```repl\nlines = [l for l in context.splitlines() if l.startswith('support')]\nkind = llm_query('Is a badge reader a hardware fault? ' + lines[0])\nn = str(sum('OPEN' in l for l in lines) - sum('CLOSE' in l for l in lines))\nprint(n, kind)\n```",
              reasoning: 'Open minus close over the support lines.',
            };
      }
      rootTurn += 1;
      switch (rootTurn) {
        case 1:
          return {
            content:
              "First I classify each department's lines with the sub-model.\n\n```repl\nparts = {}\nfor line in context.splitlines():\n    parts.setdefault(line.split(':')[0], []).append(line)\nlabels = llm_query_batched(['Label these tickets: ' + '; '.join(v) for v in parts.values()])\nprint(dict(zip(parts, labels)))\n```",
            reasoning:
              'The context is small and line-based. A batched sub-call per department keeps the prompts short.',
          };
        case 2:
          return {
            content:
              "Support looks busiest; I'll hand it to a nested RLM.\n\n```repl\nsupport = rlm_query('How many complaints are still open in support?', '\\n'.join(parts['support']))\nprint('support open:', support)\n```",
            reasoning: 'Delegate the replay of the support log.',
          };
        case 3:
          return {
            content: "```repl\nbest = 'support'\nprint(best_department)\n```",
            reasoning: 'Check the variable before answering.',
          };
        default:
          return { content: 'FINAL_VAR(best)', reasoning: 'Out of turns; best is set.' };
      }
    },
  });
  const sub = new ScriptedModel({
    modelId: 'sub-model',
    endpoint: 'scripted://sub',
    replies: (req) => (text(req).startsWith('Label') ? 'mostly hardware' : 'yes'),
  });
  let clock = Date.parse('2026-10-07T12:00:00Z');
  let ids = 0;
  const result = await run({
    query: 'Which department has the most complaints still open?',
    context,
    models: { root, sub },
    logDir: dir,
    maxDepth: 2,
    maxIterations: 3,
    _internal: { now: () => (clock += 7), generateId: () => `e2e00${++ids}` },
  });
  return { result, file: basename(result.trajectoryPath) };
}
