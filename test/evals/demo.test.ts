import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDemoTable, runDemo } from '../../src/evals/demo.js';

const dir = join(process.cwd(), '.artifacts/demo');

describe('the offline demo', () => {
  it('runs both tasks through the real harness and tabulates them (reduced sizes)', async () => {
    await rm(dir, { recursive: true, force: true });
    const result = await runDemo({ needleLines: 20_000, tickets: 60, logDir: join(dir, 'runs') });
    const [needle, oolong] = result.rows;
    expect(needle).toMatchObject({
      task: 'needle',
      size: '20,000 lines',
      result: 'found',
      exact: true,
    });
    expect(oolong).toMatchObject({
      task: 'oolong-lite',
      result: 'exact: total abs error 0',
      exact: true,
    });
    expect(oolong?.subcalls).toBeGreaterThan(0);
    for (const row of result.rows) {
      expect(row.tokens).toBeGreaterThan(0);
      const events = readFileSync(row.trajectory ?? '', 'utf8')
        .trim()
        .split('\n');
      expect(JSON.parse(events[events.length - 1] ?? '{}')).toMatchObject({
        type: 'final',
        stopReason: 'final',
      });
    }
    const table = formatDemoTable(result.rows).split('\n');
    expect(table[0]).toMatch(/^Task +Size +Result +Turns +Sub-calls +Tokens +Seconds$/);
    expect(table[2]).toMatch(/^needle +20,000 lines +found +2 +0 +[\d,]+ +\d+\.\d$/);
    expect(table).toHaveLength(4);
  });

  it('fails the scripted needle when the harness hides REPL output: the policy depends on the harness', async () => {
    const result = await runDemo({
      needleLines: 5_000,
      tickets: 20,
      logDir: join(dir, 'broken'),
      overrides: { outputTruncateChars: 1 },
    });
    const [needle] = result.rows;
    expect(needle).toMatchObject({
      status: 'ok',
      exact: false,
      result: 'not found',
      answer: 'not found',
    });
    expect(existsSync(needle?.trajectory ?? '')).toBe(true);
  });
});
