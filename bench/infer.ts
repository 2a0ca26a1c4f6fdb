/**
 * The inference layer's own cost. Two parts (name one to run only it):
 * - `overhead`: what an `infer` call adds beyond the model call, with a
 *   ScriptedModel that answers at once: views read and hashed, the request
 *   built, the budget reserved and settled, the answer checked, the trace
 *   written (one file per frame) or not. Median and p90 over 2,000 calls.
 * - `map`: 1,000 tasks at concurrency 64 against the mock server (its own
 *   process) answering after 20 ms; ideal ceil(1000/64) x 20 ms = 320 ms.
 *   Each run writes 1,000 traces; the same map with `logDir: false` and the
 *   endpoint alone (the same requests, no inference layer) are timed beside
 *   it. Best of BENCH_RUNS (default 3) after a warm-up run.
 * Usage: npm run bench -- infer [overhead|map]
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createBudget } from '../src/infer/budget.js';
import { infer } from '../src/infer/infer.js';
import { map } from '../src/infer/map.js';
import { OpenAICompatibleEndpoint } from '../src/lm/openai-compatible.js';
import { ScriptedModel } from '../src/testing/scripted-model.js';
import { startChildServer } from './_child-server.js';

const part = process.argv[2];
const runs = Number(process.env.BENCH_RUNS ?? '3');
const out = join(process.cwd(), '.artifacts', 'bench-infer');

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function overhead(): Promise<void> {
  const view = {
    label: 'notes',
    content: 'The store keeps one writer; readers never block.\n'.repeat(200),
  };
  const schema = {
    type: 'object',
    properties: { claims: { type: 'array', items: { type: 'string' } } },
    required: ['claims'],
  };
  const cases = [
    {
      name: 'text, no trace',
      contract: 'text' as const,
      reply: 'an answer',
      logDir: false as const,
    },
    {
      name: 'text, trace written',
      contract: 'text' as const,
      reply: 'an answer',
      logDir: join(out, 'overhead'),
    },
    {
      name: 'schema, trace written',
      contract: schema,
      reply: '{"claims": ["one", "two"]}',
      logDir: join(out, 'overhead'),
    },
  ];
  console.log('infer overhead beyond the model call (ScriptedModel, 10 KB view):');
  for (const c of cases) {
    const model = new ScriptedModel({ replies: c.reply });
    const budget = createBudget({ calls: 1_000_000, tokens: 1_000_000_000, depth: 1 });
    const times: number[] = [];
    for (let i = 0; i < 2_200; i++) {
      const start = performance.now();
      await infer('List the claims.', {
        model,
        budget,
        views: [view],
        contract: c.contract,
        logDir: c.logDir,
      });
      if (i >= 200) times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${c.name.padEnd(22)} median ${quantile(times, 0.5).toFixed(3)} ms, p90 ${quantile(times, 0.9).toFixed(3)} ms (target: median < 1 ms)`,
    );
  }
}

async function mapBench(): Promise<void> {
  const tasks = 1_000;
  const concurrency = 64;
  const latencyMs = 20;
  const ideal = Math.ceil(tasks / concurrency) * latencyMs;
  const server = await startChildServer({ latencyMs });
  try {
    const endpoint = new OpenAICompatibleEndpoint({
      baseUrl: server.url,
      concurrency,
      stream: true,
    });
    const model = endpoint.languageModel({ model: 'mock-model' });
    const list = Array.from({ length: tasks }, (_, i) => `Task ${i}: say ok.`);
    let best = Number.POSITIVE_INFINITY;
    let bestRaw = Number.POSITIVE_INFINITY;
    let bestBare = Number.POSITIVE_INFINITY;
    for (let run = 0; run < runs + 1; run++) {
      // The endpoint alone, the same requests without the inference layer: the floor here.
      await server.reset();
      const rawStart = performance.now();
      await Promise.all(
        list.map((task) =>
          model.doGenerate({ messages: [{ role: 'user', content: task }], maxTokens: 100 }),
        ),
      );
      const rawMs = performance.now() - rawStart;
      await server.reset();
      const bare = performance.now();
      await map(list, {
        model,
        budget: createBudget({ calls: tasks, tokens: 100_000_000, depth: 1 }),
        concurrency,
        logDir: false,
      });
      const bareMs = performance.now() - bare;
      const logDir = join(out, 'map');
      rmSync(logDir, { recursive: true, force: true });
      await server.reset();
      const cpu = process.cpuUsage();
      const start = performance.now();
      const results = await map(list, {
        model,
        budget: createBudget({ calls: tasks, tokens: 100_000_000, depth: 1 }),
        concurrency,
        logDir,
      });
      const ms = performance.now() - start;
      const used = process.cpuUsage(cpu);
      const cpuPerTask = (used.user + used.system) / 1000 / tasks;
      const ok = results.filter((r) => r.status === 'ok').length;
      if (ok !== tasks) throw new Error(`only ${ok} of ${tasks} tasks finished`);
      // The first run warms the connections and the JIT.
      if (run > 0) {
        best = Math.min(best, ms);
        bestRaw = Math.min(bestRaw, rawMs);
        bestBare = Math.min(bestBare, bareMs);
      }
      const counters = await server.counters();
      console.log(
        `  run ${run}${run === 0 ? ' (warm-up)' : ''}: map ${ms.toFixed(0)} ms (client CPU ${cpuPerTask.toFixed(2)} ms per task, ${counters.maxInFlight} in flight at most); without traces ${bareMs.toFixed(0)} ms; the endpoint alone ${rawMs.toFixed(0)} ms`,
      );
    }
    console.log(
      `map of ${tasks} tasks at concurrency ${concurrency}, ${latencyMs} ms mock: best ${best.toFixed(0)} ms vs ideal ${ideal} ms (${(((best - ideal) / ideal) * 100).toFixed(1)}% over; target within 10%); without traces ${bestBare.toFixed(0)} ms; the endpoint alone ${bestRaw.toFixed(0)} ms`,
    );
  } finally {
    server.close();
  }
}

mkdirSync(out, { recursive: true });
if (part === undefined || part === 'overhead') await overhead();
if (part === undefined || part === 'map') await mapBench();
