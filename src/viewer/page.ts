import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { RunView } from './view-model.js';

/** Where the page's static files live (copied beside the compiled code by the build). */
export const ASSETS_DIR = fileURLToPath(new URL('./assets/', import.meta.url));

/** The page's scripts, in load order (plain scripts sharing one namespace, no modules). */
export const PAGE_SCRIPTS = [
  'util.js',
  'highlight.js',
  'source.js',
  'list.js',
  'turn.js',
  'timeline.js',
  'run.js',
  'inference.js',
  'app.js',
] as const;
export const PAGE_STYLES = ['viewer.css'] as const;
/** Every file the server may hand out from the assets folder. */
export const ASSET_FILES: readonly string[] = [...PAGE_SCRIPTS, ...PAGE_STYLES];

/** What an exported page carries: the run it opens and every child trajectory it links to. */
export interface ExportData {
  mode: 'export';
  root: string;
  runs: Record<string, RunView>;
  /** Child files the run names that could not be read. */
  missing: string[];
}

async function shell(): Promise<string> {
  return readFile(`${ASSETS_DIR}index.html`, 'utf8');
}

/** The page as the local server sends it: assets by URL, data over the API. */
export async function servedPage(): Promise<string> {
  const html = await shell();
  return html
    .replace(
      '<!-- reclamo:styles -->',
      PAGE_STYLES.map((f) => `<link rel="stylesheet" href="assets/${f}">`).join('\n'),
    )
    .replace('<!-- reclamo:data -->', '')
    .replace(
      '<!-- reclamo:scripts -->',
      PAGE_SCRIPTS.map((f) => `<script src="assets/${f}"></script>`).join('\n'),
    );
}

/** One self-contained HTML file: styles, scripts and data inline, nothing fetched. */
export async function exportedPage(data: ExportData): Promise<string> {
  const html = await shell();
  const styles = await Promise.all(PAGE_STYLES.map((f) => readFile(`${ASSETS_DIR}${f}`, 'utf8')));
  const scripts = await Promise.all(PAGE_SCRIPTS.map((f) => readFile(`${ASSETS_DIR}${f}`, 'utf8')));
  // `<` escaped so no text in the data can close the script element.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  const parts = {
    styles: styles.map((css) => `<style>\n${css}</style>`).join('\n'),
    data: `<script type="application/json" id="reclamo-data">${json}</script>`,
    scripts: scripts
      .map((js) => `<script>\n${js.replace(/<\/script/gi, '<\\/script')}</script>`)
      .join('\n'),
  };
  // Function replacers: the data may contain `$&` and friends.
  return html
    .replace('<!-- reclamo:styles -->', () => parts.styles)
    .replace('<!-- reclamo:data -->', () => parts.data)
    .replace('<!-- reclamo:scripts -->', () => parts.scripts);
}
