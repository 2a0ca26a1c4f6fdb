/**
 * Inference traces in `reclamo view`: the API lists them with parent links
 * and serves one bounded; in Chromium (when installed) the list shows the
 * tree and a trace's page shows its views, exchanges and children.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { createBudget } from '../../src/infer/budget.js';
import { inferTraced } from '../../src/infer/infer.js';
import type { Policy } from '../../src/infer/policy/policy.js';
import { PolicyRegistry } from '../../src/infer/policy/registry.js';
import { runPolicyTraced } from '../../src/infer/policy/run.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import type { InferenceList } from '../../src/viewer/inference-store.js';
import { startViewer, type ViewerServer } from '../../src/viewer/server.js';
import {
  browserAvailable,
  CHROMIUM,
  type HeadlessBrowser,
  INSTALL_HINT,
  launchChromium,
} from '../support/browser.js';

const halves: Policy = {
  name: 'halves',
  decompose: (task) => [`${task.task} (first half)`, `${task.task} (second half)`],
};

async function writeTraces(dir: string) {
  const registry = new PolicyRegistry();
  registry.register(halves);
  const model = new ScriptedModel({
    replies: (request) => {
      const user = request.messages[1]?.content ?? '';
      if (user.includes('(first half)')) return 'first: 2 claims';
      if (user.includes('(second half)')) return 'not JSON';
      return 'three claims in all';
    },
  });
  const policyRun = await runPolicyTraced('Count the claims', {
    policy: 'halves',
    registry,
    views: [{ label: 'notes', content: 'claim one. claim two. claim three.' }],
    model,
    budget: createBudget({ calls: 6, tokens: 50_000, depth: 2 }),
    logDir: dir,
  });
  const lone = await inferTraced('A lone question', { model, logDir: dir });
  return { policyId: policyRun.traceId, loneId: lone.traceId };
}

describe('inference traces in the viewer', () => {
  let viewer: ViewerServer;
  let dir = '';
  let ids: { policyId: string; loneId: string };
  let chromium: HeadlessBrowser | undefined;
  const available = browserAvailable();
  beforeAll(async () => {
    dir = mkdtempSync(join(process.cwd(), '.artifacts', 'viewer-inferences-'));
    ids = await writeTraces(dir);
    viewer = await startViewer({ path: dir });
    if (available) chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await viewer?.close();
  });

  it('lists every trace with its parent; serves one trace; 404 for an unknown or bad id', async () => {
    const list = (await (await fetch(`${viewer.url}api/inferences`)).json()) as InferenceList;
    expect(list.traces).toHaveLength(5);
    const children = list.traces.filter((t) => t.parentId === ids.policyId);
    expect(children.map((c) => c.origin).sort()).toEqual([
      'policy:halves',
      'policy:halves',
      'synthesize',
    ]);
    const policy = list.traces.find((t) => t.traceId === ids.policyId);
    expect(policy).toMatchObject({
      origin: 'policy:halves',
      status: 'ok',
      task: 'Count the claims',
    });
    const one = (await (await fetch(`${viewer.url}api/inference?id=${ids.policyId}`)).json()) as {
      childIds: string[];
      frame: { views: unknown[] };
    };
    expect(one.childIds).toHaveLength(3);
    expect(one.frame.views[0]).toMatchObject({ label: 'notes', bytes: 34 });
    expect((await fetch(`${viewer.url}api/inference?id=nope`)).status).toBe(404);
    const bad = await fetch(`${viewer.url}api/inference?id=..%2F..%2Fetc%2Fpasswd`);
    expect(bad.status).toBe(404);
    expect(((await bad.json()) as { error: string }).error).toMatch(/not an inference trace id/);
  });

  it('opens a trace file given as the path on its own page', async () => {
    const single = await startViewer({ path: join(dir, 'inferences', `${ids.loneId}.jsonl`) });
    try {
      expect(single.url).toMatch(new RegExp(`#/inference/${ids.loneId}$`));
      expect(single.dir).toBe(dir);
    } finally {
      await single.close();
    }
  });

  const skipUnlessBrowser = (ctx: TestContext) => {
    if (!available) ctx.skip(`Chromium not found at ${CHROMIUM}: ${INSTALL_HINT}`);
  };

  async function open(hash: string): Promise<Page> {
    if (!chromium) throw new Error('no browser');
    const page = await chromium.context.newPage();
    await page.goto(`${viewer.url}${hash}`);
    await page.waitForSelector('body[data-ready="true"]');
    return page;
  }

  it('shows the traces as a tree and a trace with its views, exchanges and child links', async (ctx) => {
    skipUnlessBrowser(ctx);
    const page = await open('');
    const rows = page.locator('tr.inference-row');
    await expect.poll(() => rows.count()).toBe(5);
    const order = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-trace')));
    // The policy run comes right before its three children.
    const at = order.indexOf(ids.policyId);
    const kids = order.slice(at + 1, at + 4);
    const texts = await page.locator('tr.inference-row td.question').allInnerTexts();
    expect(texts.slice(at + 1, at + 4).every((t) => t.startsWith('└'))).toBe(true);
    expect(kids).toHaveLength(3);
    await page.locator(`tr[data-trace="${ids.policyId}"] a`).click();
    await page.waitForSelector('table.views');
    const body = await page.locator('main').textContent();
    expect(body).toContain('Count the claims');
    expect(body).toContain('notes');
    expect(body).toMatch(/child \(policy:halves\)/);
    await page.locator('.event.child a').first().click();
    await page.waitForSelector('.event.response');
    const child = await page.locator('main').textContent();
    expect(child).toContain('parent:');
    expect(child).toMatch(/response 0/);
    await page.close();
  });
});
