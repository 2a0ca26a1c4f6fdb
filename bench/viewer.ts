/**
 * Viewer benchmark: time to first render of a generated 5,000-turn trajectory
 * in headless Chromium (served, and as an exported file), and the export's size.
 *
 *   npm run bench -- viewer [--turns 5000] [--runs 3]
 *
 * "First render" is the page's own clock (performance.now(), from navigation
 * start) when the run header and the first rows are on screen. "Cold" is the
 * server's first read of the file; "warm" reuses its scan.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { exportRun } from '../src/viewer/export.js';
import { startViewer } from '../src/viewer/server.js';
import { writeBigTrajectory } from '../test/support/big-trajectory.js';
import {
  browserAvailable,
  CHROMIUM,
  INSTALL_HINT,
  launchChromium,
} from '../test/support/browser.js';

const { values } = parseArgs({
  options: { turns: { type: 'string', default: '5000' }, runs: { type: 'string', default: '3' } },
});
const turns = Number(values.turns);
const runs = Number(values.runs);
if (!browserAvailable()) {
  process.stderr.write(`Chromium not found at ${CHROMIUM}: ${INSTALL_HINT}\n`);
  process.exit(2);
}

async function firstRender(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  // The page records its first render on its global object.
  return page.evaluate(
    () => (globalThis as unknown as { __reclamoRendered: number }).__reclamoRendered,
  );
}

const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const ms = (x: number) => `${Math.round(x)} ms`;

mkdirSync('.artifacts', { recursive: true });
const dir = mkdtempSync(join(process.cwd(), '.artifacts', 'bench-viewer-'));
const { context, close } = await launchChromium();
const rows: string[][] = [];
try {
  // Warm the browser up once so the first measured page does not pay for its start.
  writeBigTrajectory(join(dir, 'warmup.jsonl'), { turns: 10 });
  const warmup = await startViewer({ path: join(dir, 'warmup.jsonl') });
  const warmupPage = await context.newPage();
  await firstRender(warmupPage, warmup.url);
  await warmupPage.close();
  await warmup.close();
  for (const [label, outputChars] of [
    ['typical', 2_000],
    ['50 MB', 9_000],
  ] as const) {
    const file = `20261007T090000Z-bench-${outputChars}.jsonl`;
    const { bytes } = writeBigTrajectory(join(dir, file), { turns, outputChars });
    const viewer = await startViewer({ path: join(dir, file) });
    const page = await context.newPage();
    const cold = await firstRender(page, viewer.url);
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      await page.goto('about:blank');
      warm.push(await firstRender(page, viewer.url));
    }
    const cards = await page.locator('article.turn').count();
    await page.close();
    await viewer.close();
    const html = join(dir, `${file}.html`);
    const exported = await exportRun({ run: join(dir, file), output: html });
    const exportPage = await context.newPage();
    const opened: number[] = [];
    for (let i = 0; i < runs; i++) {
      await exportPage.goto('about:blank');
      opened.push(await firstRender(exportPage, pathToFileURL(html).href));
    }
    await exportPage.close();
    rows.push([
      `${turns} turns, ${label}`,
      mb(bytes),
      ms(cold),
      ms(median(warm)),
      String(cards),
      mb(exported.bytes),
      ms(median(opened)),
    ]);
  }
} finally {
  await close();
  rmSync(dir, { recursive: true, force: true });
}

const head = [
  'trajectory',
  'file',
  'served: cold',
  'served: warm',
  'turns drawn',
  'export',
  'export: open',
];
process.stdout.write(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|\n`);
for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
process.stdout.write(`(median of ${runs} for warm and export; target: first render < 2,000 ms)\n`);
