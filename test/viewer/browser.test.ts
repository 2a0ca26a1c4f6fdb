/**
 * End-to-end: the viewer in headless Chromium (Debian's package driven by
 * playwright-core). Skipped with an install hint when Chromium is missing,
 * unless RECLAMO_REQUIRE_BROWSER=1 (set by .ci/run), which makes it fail.
 */
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { exportRun } from '../../src/viewer/export.js';
import { startViewer, type ViewerServer } from '../../src/viewer/server.js';
import { writeBigTrajectory } from '../support/big-trajectory.js';
import {
  browserAvailable,
  CHROMIUM,
  type HeadlessBrowser,
  INSTALL_HINT,
  launchChromium,
} from '../support/browser.js';
import { writeHarnessRun } from '../support/harness-run.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'trajectories');
const shots = join(process.cwd(), '.artifacts', 'screenshots');
const PARENT = '20261007T094618Z-6d710f.jsonl';
const available = browserAvailable();

/** The text a person sees (closed <details> bodies and hidden nodes excluded). */
// biome-ignore lint/performance/useDomNodeTextContent: what is on screen is the point.
const shown = (locator: Locator) => locator.innerText();

describe('reclamo view in a browser', () => {
  let chromium: HeadlessBrowser | undefined;
  let viewer: ViewerServer | undefined;
  let dir = '';
  /** The trajectory the real harness wrote (depth 2, sub-calls, forced finish). */
  let harnessFile = '';
  /** Requests to anywhere but the viewer itself: there must be none. */
  const outside: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!available) return;
    mkdirSync(shots, { recursive: true });
    dir = mkdtempSync(join(process.cwd(), '.artifacts', 'viewer-e2e-'));
    for (const sub of ['reclamo-v1', 'upstream', 'truncated']) {
      cpSync(join(fixtures, sub), dir, { recursive: true });
    }
    writeBigTrajectory(join(dir, '20261001T000000Z-big000.jsonl'), {
      turns: 5_000,
      outputChars: 300,
    });
    harnessFile = (await writeHarnessRun(dir)).file;
    viewer = await startViewer({ path: dir });
    chromium = await launchChromium();
    await chromium.context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('http://127.0.0.1:') || url.startsWith('file:')) return route.continue();
      outside.push(url);
      return route.abort();
    });
  });
  afterAll(async () => {
    await chromium?.close();
    await viewer?.close();
  });

  const skipUnlessBrowser = (ctx: TestContext) => {
    if (!available) ctx.skip(`Chromium not found at ${CHROMIUM}: ${INSTALL_HINT}`);
  };

  async function open(hash: string): Promise<Page> {
    const context = chromium?.context as BrowserContext;
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    await page.goto(`${viewer?.url}${hash}`);
    await page.waitForSelector('body[data-ready="true"]');
    return page;
  }

  it('lists the runs, newest first, without child runs', async (ctx) => {
    skipUnlessBrowser(ctx);
    const page = await open('');
    const rows = page.locator('tr.run-row');
    await expect.poll(() => rows.count()).toBe(7);
    const files = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-file')));
    expect(files.slice(0, 3)).toEqual([harnessFile, '20261007T101500Z-cut001.jsonl', PARENT]);
    expect(files.join(' ')).not.toContain('e2e002');
    const parent = page.locator(`tr[data-file="${PARENT}"]`);
    expect(await shown(parent)).toMatch(
      /Which department.*\n?.*dept-07.*forced finish · max_iterations · from variable best.*4.*4.*24,657.*26\.0 s/s,
    );
    await page.screenshot({ path: join(shots, 'list.png'), fullPage: true });
    await parent.click();
    await page.waitForSelector('article.turn');
    expect(page.url()).toContain(`#/run/${PARENT}`);
    await page.close();
  });

  it('shows a depth-2 run the harness wrote: sub-calls, a child RLM, a forced finish', async (ctx) => {
    skipUnlessBrowser(ctx);
    const page = await open(`#/run/${harnessFile}`);
    const header = await shown(page.locator('.run-header'));
    expect(header).toContain('Which department has the most complaints still open?');
    expect(header).toContain('forced finish · max_iterations · from model best');
    expect(header).toContain('support');
    expect(header).toContain('llm_query_batched 3 · rlm_query 1');
    expect(header).toContain('2 turns inside them');
    const turns = page.locator('article.turn');
    expect(await turns.count()).toBe(3);
    const batched = turns.nth(0).locator('.block details.subcall');
    expect(await batched.count()).toBe(3);
    expect(await shown(batched.first().locator('summary'))).toMatch(
      /llm_query_batched prompt \d+ chars → answer 15 chars · .* · sub-model @ scripted:\/\/sub/,
    );
    expect(await turns.nth(0).locator('.tok-host').first().textContent()).toBe('llm_query_batched');
    expect(await shown(turns.nth(2))).toContain("NameError: name 'best_department' is not defined");
    expect(await shown(page.locator('.entry.forced'))).toContain('answer from model best');

    const child = turns.nth(1).locator('details.child-run');
    expect(await shown(child.locator('summary'))).toContain(
      'Child RLM: How many complaints are still open in support?',
    );
    await child.locator('summary').click();
    const body = child.locator('.child-body');
    await body.locator('article.turn').first().waitFor();
    expect(await body.locator('article.turn').count()).toBe(2);
    const nested = await shown(body);
    expect(nested).toContain('depth 1 of max 2');
    expect(nested).toMatch(/llm_query prompt \d+ chars → answer 3 chars/);
    expect(nested).toContain('Final answer (final_var');
    expect(await shown(body.locator('.answer-box'))).toMatch(/final\s+1/);
    await page.screenshot({ path: join(shots, 'harness-run.png'), fullPage: true });
    await page.close();
  });

  it('shows a run: ending, totals, turns, code, outputs, sub-calls, events', async (ctx) => {
    skipUnlessBrowser(ctx);
    const page = await open(`#/run/${PARENT}`);
    const header = await shown(page.locator('.run-header'));
    expect(header).toContain('Which department has the most complaints');
    expect(header).toContain('forced finish · max_iterations · from variable best');
    expect(header).toContain('dept-07');
    expect(header).toContain('llm_query_batched 3 · rlm_query 1');
    expect(header).toContain('21,840 in / 1,107 out (16,300 cached)');
    expect(header).toContain('model 12.1 s · REPL 10.7 s · harness 50 ms');
    const turns = page.locator('article.turn');
    expect(await turns.count()).toBe(4);
    const t1 = turns.nth(0);
    expect(await shown(t1.locator('.turn-head'))).toMatch(
      /Turn 1\s+09:46:22\s+4\.22 s \(model 4\.18 s · REPL 31 ms · harness 12 ms\)\s+3,120 in \/ 210 out tokens/,
    );
    // Reasoning is collapsed until asked for.
    const reasoning = t1.locator('details.reasoning');
    expect(await reasoning.getAttribute('open')).toBeNull();
    expect(await shown(t1)).not.toContain('check the formats before anything else');
    await reasoning.locator('summary').click();
    await expect.poll(() => shown(t1)).toContain('check the formats before anything else');

    const t2 = turns.nth(1);
    expect(await shown(t2.locator('.tok-host').first())).toBe('llm_query_batched');
    expect(await t2.locator('.tok-kw').count()).toBeGreaterThan(0);
    expect(await shown(t2)).toContain(
      "NameError: name 'state_after_replay' is not defined (line 1)",
    );
    expect(await shown(t2)).toContain('Nudge (error_hint)');
    const subcalls = t2.locator('.block').first().locator('details.subcall');
    expect(await subcalls.count()).toBe(3);
    expect(await shown(subcalls.first().locator('summary'))).toMatch(
      /#1 llm_query_batched prompt 1,012 chars → answer 62 chars · 1\.48 s · qwen3-8b @ http:\/\/127\.0\.0\.1:8000\/v1/,
    );
    await subcalls.first().locator('summary').click();
    expect(await shown(subcalls.first())).toMatch(
      /preview: 200 of 1,012 chars · sha256 [0-9a-f]{12}…/,
    );

    const t3 = turns.nth(2);
    expect(await shown(t3.locator('.event.compaction'))).toContain(
      '27,400 → 9,800 tokens (budget 22,118)',
    );
    expect(await shown(t3)).toContain('output truncated: 2,000 of 34,689 chars kept');
    expect(await shown(turns.nth(3))).toContain('Final rejected (final_var)');
    expect(await shown(page.locator('.entry.forced'))).toMatch(
      /Forced finish · reason max_iterations · answer from variable best/,
    );
    expect(await shown(page.locator('.entry.final-entry'))).toContain('stop reason max_iterations');
    await page.screenshot({ path: join(shots, 'run.png'), fullPage: true });
    await page.close();
  });

  it('expands a child RLM as a nested run', async (ctx) => {
    skipUnlessBrowser(ctx);
    const page = await open(`#/run/${PARENT}`);
    const child = page.locator('details.child-run').first();
    expect(await shown(child.locator('summary'))).toContain(
      'Child RLM: How many complaints in this log are still open?',
    );
    await child.locator('summary').click();
    const body = child.locator('.child-body');
    await body.locator('article.turn').first().waitFor();
    expect(await body.locator('article.turn').count()).toBe(2);
    const text = await shown(body);
    expect(text).toContain('depth 1 of max 2');
    expect(text).toContain('Final answer (final)');
    expect(await shown(body.locator('.run-header .badge.ok'))).toBe('final');
    expect(await body.locator('details.subcall').count()).toBe(2);
    await child.screenshot({ path: join(shots, 'child.png') });
    await page.close();
  });

  it('marks unreadable lines in place and shows the rest of a cut file', async (ctx) => {
    skipUnlessBrowser(ctx);
    const page = await open('#/run/20261007T101500Z-cut001.jsonl');
    expect(await shown(page.locator('.issues-banner'))).toContain(
      '2 lines of this file could not be read (line 3, 11)',
    );
    const issues = page.locator('.entry.issue');
    expect(await issues.count()).toBe(2);
    expect(await shown(issues.nth(1))).toMatch(/Line 11 could not be read: not valid JSON/);
    expect(await page.locator('article.turn').count()).toBe(3);
    expect(await shown(page.locator('.answer-box'))).toContain('unfinished (no end record)');
    await page.screenshot({ path: join(shots, 'truncated.png'), fullPage: true });
    await page.close();
  });

  it('reads upstream RLM logs: nested sub-RLM, string-typed fields, run_context lines', async (ctx) => {
    skipUnlessBrowser(ctx);
    let page = await open('#/run/rlm_2026-10-02_14-03-11_5f3a9c1e.jsonl');
    expect(await shown(page.locator('.run-header'))).toContain('upstream RLM log');
    const child = page.locator('details.child-run');
    expect(await child.count()).toBe(1);
    await child.locator('summary').click();
    await child.locator('.child-body article.turn').first().waitFor();
    const nested = await shown(child.locator('.child-body'));
    expect(nested).toContain('gpt-5-nano');
    expect(nested).toContain('velvet-harbor-42');
    expect(await page.locator('details.subcall').count()).toBe(2);
    await page.screenshot({ path: join(shots, 'upstream-nested.png'), fullPage: true });
    await page.close();

    page = await open('#/run/rlm_2025-11-20_09-12-40_0a1b2c3d.jsonl');
    await page.locator('.run-header details summary').click();
    expect(await shown(page.locator('table.settings'))).toContain("{'model_name': 'gpt-4o'}");
    expect(await shown(page.locator('.run-header'))).toContain('depth 0 of max 1');
    expect(await shown(page.locator('pre.output.stderr'))).toContain(
      "NameError: name 'm' is not defined",
    );
    expect(await shown(page.locator('.answer-box'))).toContain('17');
    await page.close();

    page = await open('#/run/rlm_2026-10-03_08-00-00_77aa88bb.jsonl');
    const contexts = page.locator('.entry.context');
    expect(await contexts.count()).toBe(2);
    expect(await shown(contexts.nth(1))).toContain('And chapter 2?');
    expect(await shown(page.locator('.answer-box'))).toContain('The crew mutinies.');
    await page.close();
  });

  it('opens a 5,000-turn run by rendering only the rows near the screen', async (ctx) => {
    skipUnlessBrowser(ctx);
    const page = await open('#/run/20261001T000000Z-big000.jsonl');
    expect(await shown(page.locator('.run-header'))).toContain('5,000');
    const rendered = await page.locator('article.turn').count();
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThanOrEqual(50);
    await page.fill('input.goto', '4321');
    await page.press('input.goto', 'Enter');
    await page.locator('article.turn[data-turn="4321"]').waitFor();
    expect(await page.locator('article.turn').count()).toBeLessThan(200);
    await page.screenshot({ path: join(shots, 'big-jump.png') });
    await page.close();
  });

  it('exports one self-contained page that opens from a file', async (ctx) => {
    skipUnlessBrowser(ctx);
    const output = join(dir, 'export.html');
    await exportRun({ run: join(dir, PARENT), output });
    const context = chromium?.context as BrowserContext;
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(pathToFileURL(output).href);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('article.turn').count()).toBe(4);
    await page.locator('details.child-run summary').click();
    await page.locator('.child-body article.turn').first().waitFor();
    expect(await page.locator('.child-body article.turn').count()).toBe(2);
    await page.screenshot({ path: join(shots, 'export.png'), fullPage: true });
    await page.close();
  });

  it('made no request outside the viewer and raised no page errors', (ctx) => {
    skipUnlessBrowser(ctx);
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
