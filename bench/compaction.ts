/**
 * Compaction's own cost and the request sizes it yields over a long run:
 * `npm run bench -- compaction [turns] [outputChars] [estimator]`, estimator
 * `heuristic` (default), `qwen3` or `o200k`. A 32,768-token window with
 * 8,192 output tokens reserved; every turn's one block prints `outputChars`.
 * The summary callback answers at once and its time is excluded. Counts go
 * through `estimatorFor`, so they are cached per text as in a run. CPU time is
 * printed beside wall time, which a busy machine inflates; BENCH_SLOW=1 lists
 * the turns over 5 ms of wall time.
 */
import type { Message } from '../src/lm/model.js';
import { estimatorFor, type TokenEstimator } from '../src/lm/tokens/index.js';
import { inputBudget } from '../src/rlm/context-budget/budget.js';
import { compactHistory, type MessageMeta } from '../src/rlm/context-budget/compaction.js';

const turns = Number(process.argv[2] ?? 100);
const outputChars = Number(process.argv[3] ?? 20_000);
const which = process.argv[4] ?? 'heuristic';

const estimator: TokenEstimator =
  which === 'qwen3'
    ? await estimatorFor('qwen3-8b')
    : which === 'o200k'
      ? await estimatorFor('gpt-4o')
      : await estimatorFor('unknown-model');

/** Deterministic output text: words and numbers, like a REPL printing records. */
function output(turn: number): string {
  let seed = turn * 2654435761;
  const next = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed;
  };
  const words = [
    'alpha',
    'record',
    'value',
    'line',
    'status',
    'ok',
    'total',
    'id',
    'name',
    'count',
  ];
  let text = '';
  while (text.length < outputChars) {
    text += `${words[next() % words.length]} ${next() % 100000} ${words[next() % words.length]}\n`;
  }
  return text.slice(0, outputChars);
}

const budget = inputBudget({ contextTokens: 32_768, maxTokens: 8_192 });
let messages: Message[] = [
  { role: 'system', content: 'You are the root model of a recursive language model. '.repeat(40) },
  { role: 'user', content: 'Question: which record holds the needle?' },
];
let meta: MessageMeta[] = [{}, {}];
const times: number[] = [];
/** CPU time per turn: steadier than wall time on a machine shared with other work. */
const cpuTimes: number[] = [];
const sizes: number[] = [];
let overflows = 0;
let summaries = 0;

for (let turn = 1; turn <= turns; turn++) {
  const code = `\`\`\`repl\nrows = [r for r in context.splitlines() if 'needle' in r]\nprint(rows[:${turn}])\nfor i in range(${turn}):\n    print(context[i*1000:(i+1)*1000])\n\`\`\``;
  const out = output(turn);
  const line = `\n[turn ${turn + 1} of ${turns + 1}]`;
  messages.push({ role: 'assistant', content: code }, { role: 'user', content: out + line });
  meta.push(
    { turn, parts: [{ kind: 'code', text: code }] },
    {
      turn,
      parts: [
        { kind: 'output', text: out, block: 1 },
        { kind: 'turn', text: line },
      ],
    },
  );
  let summaryMs = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await compactHistory({
    messages,
    meta,
    turn: turn + 1,
    budget,
    estimator,
    summarize: async (texts) => {
      const t = performance.now();
      summaries++;
      const summary = `Earlier turns printed ${texts.length} records; none held the needle.`;
      summaryMs += performance.now() - t;
      return summary;
    },
  });
  times.push(performance.now() - started - summaryMs);
  const used = process.cpuUsage(cpu);
  cpuTimes.push((used.user + used.system) / 1000 - summaryMs);
  sizes.push(result.afterTokens);
  if (result.overflow) overflows++;
  messages = result.messages;
  meta = result.meta;
}

if (process.env.BENCH_SLOW)
  process.stderr.write(
    `slow turns: ${times
      .map((t, i) => [i + 1, t.toFixed(1)])
      .filter(([, t]) => Number(t) > 5)
      .join(' ')}\n`,
  );
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const pct = (xs: number[], p: number) =>
  sorted(xs)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const fmt = (x: number) => x.toFixed(2);
process.stdout.write(
  [
    `compaction bench: ${turns} turns, ${outputChars.toLocaleString('en-US')}-char outputs, estimator ${estimator.name}`,
    `budget: ${budget.limitTokens} tokens (window 32768, max_tokens 8192)`,
    `time per turn (ms): median ${fmt(pct(times, 0.5))}, p95 ${fmt(pct(times, 0.95))}, max ${fmt(Math.max(...times))} (turn ${times.indexOf(Math.max(...times)) + 1}), max after turn 1 ${fmt(Math.max(...times.slice(1)))}`,
    `cpu time per turn (ms): median ${fmt(pct(cpuTimes, 0.5))}, p95 ${fmt(pct(cpuTimes, 0.95))}, max after turn 3 ${fmt(Math.max(...cpuTimes.slice(3)))}`,
    `request size / budget: median ${fmt(pct(sizes, 0.5) / budget.limitTokens)}, max ${fmt(Math.max(...sizes) / budget.limitTokens)}`,
    `overflows: ${overflows}, summary calls: ${summaries}`,
    '',
  ].join('\n'),
);
