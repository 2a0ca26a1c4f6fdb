/**
 * Root request sizes over a long scripted run through the whole harness:
 * `npm run bench -- compaction-run [turns] [outputChars] [estimator]` (default
 * 100 turns, 20,000 characters, estimator `heuristic`; `qwen3` or `o200k`
 * name the root model so that the run counts with that real tokenizer). The mock OpenAI-compatible server answers over real
 * HTTP, the real Python worker runs every block (each prints `outputChars`
 * letters), the window is 32,768 tokens with 4,096 reserved for the reply,
 * and outputs enter the history whole (output_truncate_chars 25,000), so
 * compaction does all the work. Sizes are measured on the requests the server
 * received, with the run's own estimator; compaction's time comes from its
 * trajectory records (the summary sub-call excluded).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ResolvedProfile } from '../src/config/types.js';
import { countRequest, estimatorFor } from '../src/lm/tokens/index.js';
import { inputBudget } from '../src/rlm/context-budget/budget.js';
import { run } from '../src/rlm/run.js';
import { startMockServer } from '../src/testing/index.js';
import { readTrajectory } from '../src/trace/reader.js';

const turns = Number(process.argv[2] ?? 100);
const outputChars = Number(process.argv[3] ?? 20_000);
const which = process.argv[4] ?? 'heuristic';
const ROOT_MODELS: Record<string, string> = {
  heuristic: 'bench-root',
  qwen3: 'qwen3-bench-root',
  o200k: 'gpt-4o-bench-root',
};
const rootModel = ROOT_MODELS[which];
if (!rootModel) {
  process.stderr.write(
    `unknown estimator ${which}; use one of ${Object.keys(ROOT_MODELS).join(', ')}\n`,
  );
  process.exit(2);
}
const CONTEXT_TOKENS = 32_768;
const MAX_TOKENS = 4_096;

const code = (n: number) =>
  `# step ${n}: read the next slice\nout = ''.join(chr(97 + (i * 7 + ${n}) % 26) for i in range(${outputChars}))\nprint(out)`;

let served = 0;
const server = await startMockServer({
  policy: (r) => {
    if (r.model !== rootModel) return 'Summary: every turn printed letters; nothing found.';
    served++;
    return served <= turns ? `Step ${served}.\n\`\`\`repl\n${code(served)}\n\`\`\`` : 'FINAL(done)';
  },
});
const role = (model: string) => ({
  baseUrl: server.url,
  api: 'openai' as const,
  apiKeyEnv: 'RECLAMO_BENCH_KEY',
  concurrency: 2,
  model,
  sampling: {},
  contextTokens: CONTEXT_TOKENS,
  maxTokens: MAX_TOKENS,
});
const profile: ResolvedProfile = {
  name: 'bench',
  source: 'bench',
  root: role(rootModel),
  sub: role('bench-sub'),
  run: {},
};
const dir = resolve('.artifacts/bench/compaction-run');
mkdirSync(dir, { recursive: true });
const work = mkdtempSync(join(dir, 'run-'));
const contextPath = join(work, 'context.txt');
writeFileSync(contextPath, 'line of context\n'.repeat(1000));

const started = performance.now();
const result = await run({
  query: 'Read every slice, then answer done.',
  context: contextPath,
  profile,
  env: { RECLAMO_BENCH_KEY: 'bench-key' },
  logDir: join(work, 'runs'),
  maxIterations: turns + 5,
  outputTruncateChars: 25_000,
});
const wallMs = performance.now() - started;
await server.close();

const estimator = await estimatorFor(rootModel);
const budget = inputBudget({ contextTokens: CONTEXT_TOKENS, maxTokens: MAX_TOKENS });
const roots = server.requests.filter((r) => r.model === rootModel);
const sizes = roots.map((r) => countRequest(r.messages, estimator, r.tools));
const { events } = await readTrajectory(result.trajectoryPath);
const compactions = events.filter((e) => e.type === 'compaction');
const times = compactions.map((e) => e.elapsedMs ?? 0);
const summaries = compactions.filter((e) => e.summarized).length;
rmSync(work, { recursive: true, force: true });

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const pct = (xs: number[], p: number) =>
  sorted(xs)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
const f2 = (x: number) => x.toFixed(2);
const largest = Math.max(...sizes);
process.stdout.write(
  [
    `compaction-run bench: ${turns} turns, ${outputChars.toLocaleString('en-US')}-char outputs, mock server + real Python worker, estimator ${estimator.name}`,
    `budget: ${budget.limitTokens} tokens (window ${CONTEXT_TOKENS}, max_tokens ${MAX_TOKENS}); run ended: ${result.stopReason} after ${result.turns} turns, ${(wallMs / 1000).toFixed(1)} s`,
    `root requests: ${sizes.length}; over the budget: ${sizes.filter((s) => s > budget.limitTokens).length}`,
    `request size / budget: median ${f2(pct(sizes, 0.5) / budget.limitTokens)}, largest ${f2(largest / budget.limitTokens)} (${largest} tokens)`,
    `compaction time per turn (ms, summary sub-call excluded, ${times.length} turns compacted): median ${f2(pct(times, 0.5))}, p95 ${f2(pct(times, 0.95))}, max ${f2(Math.max(...times))} (turn ${compactions[times.indexOf(Math.max(...times))]?.turn}), at turn ${turns} ${f2(times.at(-1) ?? 0)}`,
    `summary sub-calls: ${summaries}; sub-calls in the run: ${result.subcalls}`,
    '',
  ].join('\n'),
);
