/**
 * The offline demo: the real harness (Python REPL, HTTP model calls, loop,
 * trajectories) on needle and oolong-lite, with the scripted policies on an
 * in-process mock server standing in for the models. No key, no server.
 */
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunOverrides } from '../rlm/settings.js';
import { type RlmOutcome, type RlmRowRunner, runRlmRow } from './bench/rlm-row.js';
import { writeTaskContext } from './context-file.js';
import { startScriptedBackend } from './offline.js';
import { getTask } from './tasks/index.js';

export interface DemoOptions {
  /** needle size in lines (default 1,000,000). */
  needleLines?: number;
  /** oolong-lite size in tickets (default 300). */
  tickets?: number;
  /** Generator seed (default 0). */
  seed?: number;
  /** Where trajectories go (default `runs`). */
  logDir?: string;
  /** Share of ticket labels the scripted reader gets wrong (default 0). */
  subErrorRate?: number;
  /** Settings for the runs (e.g. a broken output limit, to watch the policies fail). */
  overrides?: RunOverrides;
  /** Run one task through the harness; defaults to the real `run()`. */
  runRlm?: RlmRowRunner;
}

export interface DemoRow extends RlmOutcome {
  task: string;
  size: string;
  /** The scorer's verdict, e.g. `found` or `exact: total abs error 0`. */
  result: string;
  exact: boolean;
}

export interface DemoResult {
  rows: DemoRow[];
  /** Absolute trajectory directory. */
  logDir: string;
}

/** Says what the demo's numbers are, wherever they are shown. */
export const DEMO_CAVEAT =
  'The answers come from scripted policies on a local mock server, not from a language model. ' +
  'They exist to exercise and measure the harness (the real Python REPL, HTTP calls, loop and trajectories), ' +
  'not to show what a model would score: the root policy acts only on the REPL output the harness shows it, ' +
  'so a broken harness makes it answer wrong.';

export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const seed = options.seed ?? 0;
  const logDir = resolve(options.logDir ?? 'runs');
  await mkdir(logDir, { recursive: true });
  const backend = await startScriptedBackend(
    options.subErrorRate === undefined ? {} : { errorRate: options.subErrorRate },
  );
  const work = join(tmpdir(), `reclamo-demo-${process.pid}-${Date.now()}`);
  const runRlm = options.runRlm ?? runRlmRow;
  const plan = [
    { task: 'needle', size: options.needleLines ?? 1_000_000 },
    { task: 'oolong-lite', size: options.tickets ?? 300 },
  ];
  const rows: DemoRow[] = [];
  try {
    for (const { task, size } of plan) {
      const generator = getTask(task);
      const instance = generator.generate({ size, seed });
      const context = await writeTaskContext(instance.context, join(work, task));
      const outcome = await runRlm({
        profile: backend.profile,
        instance,
        context,
        logDir,
        ...(options.overrides ? { overrides: options.overrides } : {}),
      });
      const score = outcome.status === 'ok' ? instance.score(outcome.answer ?? '') : undefined;
      rows.push({
        ...outcome,
        task,
        size: `${size.toLocaleString('en-US')} ${generator.sizeUnit}`,
        result: score
          ? describeScore(task, score.summary)
          : `error: ${outcome.error ?? 'no answer'}`,
        exact: score?.exact ?? false,
      });
    }
  } finally {
    await backend.close();
    await rm(work, { recursive: true, force: true });
  }
  return { rows, logDir };
}

function describeScore(task: string, summary: string): string {
  if (task === 'oolong-lite') return summary === 'exact' ? 'exact: total abs error 0' : summary;
  return summary;
}

/** The demo table as aligned plain text. */
export function formatDemoTable(rows: DemoRow[]): string {
  const header = ['Task', 'Size', 'Result', 'Turns', 'Sub-calls', 'Tokens', 'Seconds'];
  const body = rows.map((r) => [
    r.task,
    r.size,
    r.result,
    String(r.turns ?? '–'),
    String(r.subcalls ?? '–'),
    r.tokens === undefined ? '–' : r.tokens.toLocaleString('en-US'),
    r.seconds === undefined ? '–' : r.seconds.toFixed(1),
  ]);
  const widths = header.map((h, i) =>
    Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= 3 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
