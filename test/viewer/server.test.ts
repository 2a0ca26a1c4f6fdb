import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRun } from '../../src/viewer/export.js';
import type { RunList } from '../../src/viewer/run-store.js';
import { startViewer, type ViewerServer } from '../../src/viewer/server.js';
import type { RunHeader, TurnView } from '../../src/viewer/view-model.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'trajectories');
const PARENT = '20261007T094618Z-6d710f.jsonl';
const CHILD = '20261007T094655Z-3a9e2b.jsonl';

function makeRunsDir(): string {
  const dir = mkdtempSync(join(process.cwd(), '.artifacts', 'viewer-runs-'));
  for (const sub of ['reclamo-v1', 'upstream', 'truncated']) {
    cpSync(join(fixtures, sub), dir, { recursive: true });
  }
  writeFileSync(
    join(dir, '20261007T094618Z-6d710f.sft.jsonl'),
    '{"messages":[],"completion":"x"}\n',
  );
  writeFileSync(join(dir, 'notes.txt'), 'not a run');
  return dir;
}

/** GET with a chosen Host header (fetch does not let a caller set it). */
function get(url: string, host?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the viewer server', () => {
  let viewer: ViewerServer;
  let base: string;
  beforeAll(async () => {
    viewer = await startViewer({ path: makeRunsDir(), port: 0 });
    base = viewer.url;
  });
  afterAll(() => viewer.close());

  it('listens on 127.0.0.1 and serves the page with its assets', async () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get(base);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script src="assets/app.js"></script>');
    expect(page.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    expect((await get(`${base}assets/highlight.js`)).status).toBe(200);
    expect((await get(`${base}assets/..%2Fserver.js`)).status).toBe(404);
  });

  it('lists top-level runs newest first, hiding child runs and SFT logs', async () => {
    const list = JSON.parse((await get(`${base}api/runs`)).body) as RunList;
    expect(list.runs.map((r) => r.file)).toEqual([
      '20261007T101500Z-cut001.jsonl',
      PARENT,
      'rlm_2026-10-03_08-00-00_77aa88bb.jsonl',
      'rlm_2026-10-02_14-03-11_5f3a9c1e.jsonl',
      'rlm_2025-11-20_09-12-40_0a1b2c3d.jsonl',
    ]);
    expect(list.runs.map((r) => r.file)).not.toContain(CHILD);
    expect(list.skipped).toEqual([
      { file: '20261007T094618Z-6d710f.sft.jsonl', reason: 'SFT log' },
    ]);
    const parent = list.runs.find((r) => r.file === PARENT);
    expect(parent).toMatchObject({
      answer: 'dept-07',
      turns: 4,
      subcalls: 4,
      ms: 26010,
      tokens: 21840 + 1107 + 1590 + 120,
      ending: { kind: 'forced', stopReason: 'max_iterations' },
    });
    expect(list.runs.find((r) => r.file.includes('cut001'))?.issues).toBe(2);
  });

  it('sends a header, then the details of the rows asked for', async () => {
    const { header } = JSON.parse((await get(`${base}api/run?file=${PARENT}`)).body) as {
      header: RunHeader;
    };
    expect(header.timeline).toHaveLength(6);
    const res = await get(`${base}api/details?file=${PARENT}&from=1&to=3`);
    const { details } = JSON.parse(res.body) as { details: TurnView[] };
    expect(details.map((d) => d.turn)).toEqual([2, 3]);
    expect(details[0]?.blocks[0]?.subcalls).toHaveLength(3);
    expect(details[1]?.blocks[0]?.subcalls[0]?.child).toEqual({ file: CHILD });
    const child = JSON.parse((await get(`${base}api/run?file=${CHILD}`)).body) as {
      header: RunHeader;
    };
    expect(child.header.parent?.file).toBe(PARENT);
  });

  it('refuses paths outside the directory, bad ranges and foreign Host headers', async () => {
    const outside = await get(`${base}api/run?file=${encodeURIComponent('../reclamo-v1/x.jsonl')}`);
    expect(outside.status).toBe(400);
    expect(JSON.parse(outside.body).error).toMatch(/not a trajectory file name/);
    expect((await get(`${base}api/run?file=missing.jsonl`)).status).toBe(404);
    expect((await get(`${base}api/details?file=${PARENT}&from=-1&to=2`)).status).toBe(400);
    expect((await get(base, 'evil.example:80')).status).toBe(403);
  });

  it('reads a file again when it changes', async () => {
    const file = join(viewer.dir, 'rlm_2026-10-03_08-00-00_77aa88bb.jsonl');
    const before = JSON.parse((await get(`${base}api/run?file=${file.split('/').pop()}`)).body);
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"broken\n`);
    const after = JSON.parse((await get(`${base}api/run?file=${file.split('/').pop()}`)).body);
    expect(after.header.issues.length).toBe(before.header.issues.length + 1);
  });
});

describe('startViewer', () => {
  it('opens on a single file and names the fix when the path is missing', async () => {
    const viewer = await startViewer({ path: join(fixtures, 'reclamo-v1', PARENT) });
    try {
      expect(viewer.url).toMatch(new RegExp(`#/run/${PARENT.replace('.', '\\.')}$`));
    } finally {
      await viewer.close();
    }
    await expect(startViewer({ path: join(fixtures, 'nope') })).rejects.toThrow(
      /does not exist\. Pass a trajectory file or the directory/,
    );
  });
});

describe('exportRun', () => {
  it('writes one HTML file with the run, its child and the page inline', async () => {
    const output = join(
      mkdtempSync(join(process.cwd(), '.artifacts', 'viewer-export-')),
      'run.html',
    );
    const result = await exportRun({ run: join(fixtures, 'reclamo-v1', PARENT), output });
    expect(result).toMatchObject({ runs: 2, missing: [] });
    const html = readFileSync(output, 'utf8');
    expect(result.bytes).toBe(Buffer.byteLength(html));
    expect(html).not.toMatch(/<script src=|<link /);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const data = html.match(/<script type="application\/json" id="reclamo-data">(.*?)<\/script>/s);
    const parsed = JSON.parse(data?.[1] ?? '{}');
    expect(Object.keys(parsed.runs).sort()).toEqual([PARENT, CHILD]);
    expect(parsed.root).toBe(PARENT);
  });

  it('keeps text that looks like a closing tag from ending the data early', async () => {
    const dir = mkdtempSync(join(process.cwd(), '.artifacts', 'viewer-export-'));
    const run = join(dir, 'r.jsonl');
    writeFileSync(
      run,
      `${JSON.stringify({ type: 'metadata', v: 1, runId: 'r', query: '</script><script>alert(1)</script> $& $1', depth: 0 })}\n`,
    );
    await exportRun({ run, output: join(dir, 'r.html') });
    const html = readFileSync(join(dir, 'r.html'), 'utf8');
    expect(html).not.toContain('</script><script>alert(1)');
    expect(html).toContain('\\u003c/script>\\u003cscript>alert(1)\\u003c/script> $& $1');
  });
});
