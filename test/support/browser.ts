import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium; `npx playwright install` cannot download browsers here. */
export const CHROMIUM = process.env.RECLAMO_CHROMIUM ?? '/usr/bin/chromium';
export const INSTALL_HINT =
  'install it with `apt-get update && apt-get install -y chromium` (or set RECLAMO_CHROMIUM to a Chromium binary)';

/** True when a browser test may run; when Chromium is missing and RECLAMO_REQUIRE_BROWSER=1, throws. */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.RECLAMO_REQUIRE_BROWSER === '1') {
    throw new Error(`RECLAMO_REQUIRE_BROWSER=1 but ${CHROMIUM} is missing: ${INSTALL_HINT}`);
  }
  return false;
}

export interface HeadlessBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts headless Chromium on a fresh profile directory (deleted on close)
 * with background network traffic turned off.
 */
export async function launchChromium(): Promise<HeadlessBrowser> {
  mkdirSync(join(process.cwd(), '.artifacts'), { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'reclamo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
