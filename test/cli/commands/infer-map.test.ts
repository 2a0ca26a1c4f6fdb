/**
 * `reclamo infer`, `reclamo map` and `reclamo trace show` as the built CLI
 * against the mock server on 127.0.0.1: values, exit codes, in-order result
 * lines, the key nowhere but the request header.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../../src/testing/index.js';
import { startMockServer } from '../../../src/testing/index.js';
import { tempLogDir } from '../../infer/helpers.js';
import { runCli } from '../../support/run-built-cli.js';

const KEY = 'sk-INFER-77aa-never-log-me';
const dir = tempLogDir('cli-infer');
const logDir = join(dir, 'runs');
let server: MockServer;

const taskOf = (content: string) => content.slice(content.lastIndexOf('Task:\n') + 6);

beforeAll(async () => {
  server = await startMockServer({
    policy: (r) => {
      const task = taskOf(r.messages[1]?.content ?? '');
      if (task === 'count') return '{"n": 3}';
      if (task === 'never valid') return 'prose, not JSON';
      if (task === 'slow') return { content: 'late', delayMs: 150 };
      return `answer: ${task}`;
    },
  });
});
afterAll(() => server.close());

const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--base-url', server.url, '--model', 'm', '--log-dir', logDir], {
    home: dir,
    env,
    killAfterMs: 60_000,
  });

describe('reclamo infer', () => {
  it('prints a text value, names the trace on stderr, and sends the key only as the header', async () => {
    const view = join(dir, 'view.txt');
    writeFileSync(view, 'the view text');
    server.requests.length = 0;
    const res = await cli(
      ['infer', '-q', 'say hi', '--view', view, '--view-text', 'extra', '--api-key-env', 'K'],
      { K: KEY },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('answer: say hi\n');
    const id = /inference:(\S+);/.exec(res.stderr)?.[1] ?? '';
    expect(id).not.toBe('');
    const user = server.requests[0]?.messages[1]?.content ?? '';
    expect(user).toContain('the view text');
    expect(user).toContain('extra');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(readFileSync(join(logDir, 'inferences', `${id}.jsonl`), 'utf8')).not.toContain(KEY);
    expect(res.stdout + res.stderr).not.toContain(KEY);

    const shown = await runCli(['trace', 'show', `inference:${id}`, '--log-dir', logDir], {
      home: dir,
    });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('task: say hi');
    expect(shown.stdout).toContain('view.txt: 13 bytes, sha256 ');
    expect(shown.stdout).toContain('outcome: ok after 1 requests');
  });

  it('prints a schema value as JSON; exit 3 with the observation when the budget runs out', async () => {
    const schema = join(dir, 'schema.json');
    writeFileSync(schema, JSON.stringify({ type: 'object', required: ['n'] }));
    const ok = await cli(['infer', '-q', 'count', '--schema', schema]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ n: 3 });

    const incomplete = await cli([
      'infer',
      '-q',
      'never valid',
      '--schema',
      schema,
      '--calls',
      '2',
    ]);
    expect(incomplete.code).toBe(3);
    const observation = JSON.parse(incomplete.stdout);
    expect(observation).toMatchObject({ status: 'incomplete', exhausted: 'calls' });
    expect(observation.recent.at(-1).content).toBe('prose, not JSON');
  });

  it('exit 2 for a bad schema, an unreadable or oversized view and a zero budget, before any request', async () => {
    const bad = join(dir, 'bad-schema.json');
    writeFileSync(bad, '{"type": "strng"}');
    const big = join(dir, 'big.txt');
    writeFileSync(big, 'x'.repeat(2_000));
    server.requests.length = 0;
    const cases: [string[], RegExp][] = [
      [['--schema', bad], /not a valid JSON Schema/],
      [['--schema', join(dir, 'none.json')], /--schema .*none.json: cannot read it/],
      [['--view', join(dir, 'missing.txt')], /cannot read .*missing.txt/],
      [
        ['--view', big, '--max-view-bytes', '1000'],
        /over the limit of 1000 bytes.*--max-view-bytes/,
      ],
      [['--calls', '0'], /--calls/],
      [['--tokens', '0'], /--tokens/],
    ];
    for (const [flags, message] of cases) {
      const res = await cli(['infer', '-q', 'q', ...flags]);
      expect(res.code, `${flags.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(message);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('exit 1 when the endpoint fails', async () => {
    const res = await runCli(
      [
        'infer',
        '-q',
        'q',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--model',
        'm',
        '--log-dir',
        logDir,
      ],
      { home: dir, killAfterMs: 60_000 },
    );
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(/Nothing is listening there/);
  });

  it('trace show of an unknown id exits 2 naming the folder and --log-dir', async () => {
    const res = await runCli(['trace', 'show', 'inference:nope', '--log-dir', logDir], {
      home: dir,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/No inference trace nope in .*inferences.*--log-dir/);
  });
});

describe('reclamo map', () => {
  it('prints one line per task in task order, with the exit code of the worst result', async () => {
    const tasks = join(dir, 'tasks.jsonl');
    writeFileSync(
      tasks,
      [
        JSON.stringify('slow'),
        JSON.stringify({ task: 'count', schema: { type: 'object' } }),
        '',
        JSON.stringify({ task: 'with views', views: [{ text: 'inline', label: 'L' }] }),
      ].join('\n'),
    );
    const res = await cli(['map', '--tasks', tasks, '--concurrency', '3']);
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.index, l.status])).toEqual([
      [0, 'ok'],
      [1, 'ok'],
      [2, 'ok'],
    ]);
    expect(lines[0].value).toBe('late');
    expect(lines[1].value).toEqual({ n: 3 });
    expect(res.stderr).toMatch(/3 ok, 0 incomplete, 0 failed/);

    const mixed = join(dir, 'mixed.jsonl');
    writeFileSync(
      mixed,
      [
        JSON.stringify('a'),
        JSON.stringify({ task: 'never valid', schema: { type: 'object' } }),
      ].join('\n'),
    );
    const partial = await cli(['map', '--tasks', mixed, '--concurrency', '1', '--calls', '3']);
    expect(partial.code).toBe(3);
    const out = partial.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.map((l) => l.status)).toEqual(['ok', 'incomplete']);
  });

  it('exit 2 naming the line for a bad task file, before any request', async () => {
    server.requests.length = 0;
    const cases: [string, RegExp][] = [
      ['"ok"\n{"task": 5}\n', /line 2: expected a task/],
      ['"ok"\nnot json\n', /line 2: not JSON/],
      [
        `${JSON.stringify({ task: 't', views: [join(dir, 'missing.txt')] })}\n`,
        /line 1: view .*missing.txt cannot be read/,
      ],
      [`${JSON.stringify({ task: 't', schema: { type: 'nope' } })}\n`, /not a valid JSON Schema/],
      ['\n\n', /no tasks in it/],
    ];
    for (const [text, message] of cases) {
      const file = join(dir, `bad-${Math.random().toString(36).slice(2)}.jsonl`);
      writeFileSync(file, text);
      const res = await cli(['map', '--tasks', file]);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(message);
    }
    expect(server.requests).toHaveLength(0);
    expect(readdirSync(dir).length).toBeGreaterThan(0);
  });
});
