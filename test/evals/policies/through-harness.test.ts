import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRlmRow } from '../../../src/evals/bench/rlm-row.js';
import { writeTaskContext } from '../../../src/evals/context-file.js';
import { type ScriptedBackend, startScriptedBackend } from '../../../src/evals/offline.js';
import { getTask } from '../../../src/evals/tasks/index.js';
import type { RunOverrides } from '../../../src/rlm/settings.js';

const dir = join(process.cwd(), '.artifacts/through-harness');
let backend: ScriptedBackend;

beforeAll(async () => {
  await rm(dir, { recursive: true, force: true });
  backend = await startScriptedBackend();
});
afterAll(() => backend.close());

async function attempt(task: string, size: number, overrides: RunOverrides = {}) {
  const instance = getTask(task).generate({ size, seed: 1 });
  const context = await writeTaskContext(instance.context, join(dir, `${task}-${size}`));
  const outcome = await runRlmRow({
    profile: backend.profile,
    instance,
    context,
    logDir: join(dir, 'runs'),
    overrides,
  });
  return { outcome, score: instance.score(outcome.answer ?? '') };
}

describe('scripted policies through the real harness', () => {
  it('longdoc-qa: two searches and a FINAL answer all three questions', async () => {
    const { outcome, score } = await attempt('longdoc-qa', 60);
    expect(outcome).toMatchObject({ status: 'ok', stopReason: 'final', turns: 3, subcalls: 0 });
    expect(score.summary).toBe('3/3 questions');
  });

  it('nested at depth 1: format discovery, replay and batched labels in one REPL', async () => {
    const { outcome, score } = await attempt('nested', 3);
    expect(outcome).toMatchObject({ status: 'ok', stopReason: 'final', turns: 3 });
    expect(outcome.subcalls).toBeGreaterThan(0);
    expect(score).toMatchObject({ exact: true, summary: '3/3 counts, most right' });
  });

  it('nested at depth 2: one child RLM per department through rlm_query', async () => {
    const { outcome, score } = await attempt('nested', 3, { maxDepth: 2 });
    expect(score).toMatchObject({ exact: true });
    // Three rlm_query calls plus each child's own labelling call(s).
    expect(outcome.subcalls).toBeGreaterThanOrEqual(6);
    const events = readFileSync(outcome.trajectory ?? '', 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; kind?: string; child?: string });
    const children = events.filter((e) => e.type === 'subcall' && e.kind === 'rlm_query');
    expect(children).toHaveLength(3);
    expect(children.every((e) => typeof e.child === 'string')).toBe(true);
  });

  it('speaks the tools protocol and the upstream message layout as well as fenced code', async () => {
    for (const overrides of [{ protocol: 'tools' }, { plannerStyle: 'upstream-rlm-v0' }] as const) {
      const needle = await attempt('needle', 2_000, overrides);
      expect(needle.score.summary, JSON.stringify(overrides)).toBe('found');
      expect(needle.outcome.turns).toBe(2);
      const oolong = await attempt('oolong-lite', 60, overrides);
      expect(oolong.score.exact, JSON.stringify(overrides)).toBe(true);
      expect(oolong.outcome.turns).toBe(3);
    }
  });
});
