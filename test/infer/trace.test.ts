import { appendFileSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceNotFoundError } from '../../src/infer/errors.js';
import { formatTrace } from '../../src/infer/trace/format.js';
import { readTrace } from '../../src/infer/trace/read.js';
import { tempLogDir } from './helpers.js';

const FIXTURE = join(process.cwd(), 'test', 'fixtures', 'inference-traces', 'v1-repair.jsonl');
const ID = '20260101T000000Z-0a1b2c3d';

function withFixture(): string {
  const logDir = tempLogDir('fixture');
  mkdirSync(join(logDir, 'inferences'), { recursive: true });
  copyFileSync(FIXTURE, join(logDir, 'inferences', `${ID}.jsonl`));
  return logDir;
}

describe('readTrace', () => {
  it('reads the frozen version-1 trace by its inference: address', async () => {
    const trace = await readTrace(`inference:${ID}`, { logDir: withFixture() });
    expect(trace.errors).toEqual([]);
    expect(trace.frame).toMatchObject({ task: 'List the claims the note makes.', origin: 'infer' });
    expect(trace.events.map((e) => e.type)).toEqual([
      'frame',
      'request',
      'response',
      'repair',
      'request',
      'response',
      'outcome',
    ]);
    expect(trace.outcome).toMatchObject({ status: 'ok', value: { claims: ['one', 'two'] } });
  });

  it('marks a malformed line and reads the rest', async () => {
    const logDir = withFixture();
    appendFileSync(join(logDir, 'inferences', `${ID}.jsonl`), '{"type":"respo\n{"type":"tool"}\n');
    const trace = await readTrace(ID, { logDir });
    expect(trace.events).toHaveLength(7);
    expect(trace.errors.map((e) => e.line)).toEqual([8, 9]);
    expect(trace.errors[1]?.message).toMatch(/tool event without round, call, result/);
  });

  it('refuses anything that is not an id (no path reaches the disk) and names the folder when missing', async () => {
    for (const ref of [
      'inference:../../etc/passwd',
      'inference:',
      'a/b',
      '.hidden',
      'x'.repeat(200),
    ]) {
      await expect(readTrace(ref, { logDir: withFixture() })).rejects.toThrow(
        /not an inference trace id/,
      );
    }
    await expect(readTrace('inference:nope', { logDir: '/tmp/no-such-dir' })).rejects.toThrow(
      TraceNotFoundError,
    );
    await expect(readTrace('inference:nope', { logDir: '/tmp/no-such-dir' })).rejects.toThrow(
      /No inference trace nope in \/tmp\/no-such-dir\/inferences/,
    );
  });
});

describe('formatTrace', () => {
  it('shows the task, views with digests, each exchange and the outcome, bounded', async () => {
    const trace = await readTrace(ID, { logDir: withFixture() });
    const text = formatTrace(trace);
    expect(text).toContain(`inference:${ID}`);
    expect(text).toContain(
      'note: 48 bytes, sha256 1316f9ff11b15db7b8760403982dc08404c822ad13fc999f50ac6e599a2b9493',
    );
    expect(text).toContain('- /claims: must be array');
    expect(text).toContain('charged 32');
    expect(text).toContain('outcome: ok after 2 requests');
    const small = formatTrace(trace, { maxChars: 300, pieceChars: 40 });
    expect(small.length).toBeLessThan(400);
    expect(small).toContain('characters cut');
  });
});
