import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTrajectory, readTrajectory } from '../../src/trace/reader.js';
import { readSft } from '../../src/trace/sft.js';
import { TrajectoryWriter, trajectoryStem } from '../../src/trace/writer.js';

const dir = join('.artifacts', 'test', 'trace');

describe('trajectory writer and reader', () => {
  it('names files by UTC start time and id', () => {
    expect(trajectoryStem(new Date('2026-10-07T09:46:18.123Z'), '6d710f')).toBe(
      '20261007T094618Z-6d710f',
    );
  });

  it('appends each event as it is written (a killed run leaves a readable file)', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const writer = new TrajectoryWriter({
      dir,
      stem: 'append',
      now: () => new Date('2026-11-30T00:00:00Z'),
      sft: true,
    });
    writer.write({
      type: 'metadata',
      runId: 'r1',
      query: 'q',
      context: { type: 'str', totalChars: 1, partLengths: [1] },
      depth: 0,
      maxDepth: 1,
      profile: { name: 'p', settings: {} },
      endpoints: [],
      promptVersion: 'v0.2',
      protocol: 'fence',
      plannerStyle: 'reclamo',
    });
    // Not closed yet: the line is already on disk.
    const partial = await readTrajectory(writer.path);
    expect(partial.errors).toEqual([]);
    expect(partial.events[0]).toMatchObject({
      type: 'metadata',
      v: 1,
      t: '2026-11-30T00:00:00.000Z',
    });
    writer.writeSft([{ role: 'user', content: 'hi' }], 'FINAL(1)');
    writer.close();
    const sft = await readSft(writer.sftPath ?? '');
    expect(sft.records).toEqual([
      { messages: [{ role: 'user', content: 'hi' }], completion: 'FINAL(1)' },
    ]);
    expect(readFileSync(writer.path, 'utf8').endsWith('\n')).toBe(true);
  });

  it('writes sub-call events at the end of the event-loop turn, in order with the rest', async () => {
    mkdirSync(dir, { recursive: true });
    const writer = new TrajectoryWriter({ dir, stem: `subcalls-${Date.now()}` });
    const subcall = (count: number) =>
      writer.write({
        type: 'subcall',
        depth: 0,
        kind: 'llm_query_batched',
        turn: 1,
        block: 0,
        count,
        promptChars: 1,
        answerChars: 2,
        promptPreview: 'p',
        answerPreview: 'ok',
        promptSha256: 'a',
        answerSha256: 'b',
        latencyMs: 50,
      });
    subcall(1);
    subcall(2);
    // A burst of replies is one write, after the turn.
    expect(readFileSync(writer.path, 'utf8')).toBe('');
    await new Promise((done) => setImmediate(done));
    expect((await readTrajectory(writer.path)).events.map((e) => e.type)).toEqual([
      'subcall',
      'subcall',
    ]);
    // Any other event is written at once, after the sub-calls still waiting.
    subcall(3);
    writer.write({
      type: 'context_overflow',
      turn: 1,
      estimatedTokens: 10,
      budgetTokens: 5,
      contextTokens: 8,
      maxTokens: 2,
      action: 'forced finish',
    });
    const read = await readTrajectory(writer.path);
    expect(read.events.map((e) => (e.type === 'subcall' ? e.count : e.type))).toEqual([
      1,
      2,
      3,
      'context_overflow',
    ]);
    // close() writes what is left.
    subcall(4);
    writer.close();
    expect((await readTrajectory(writer.path)).events).toHaveLength(5);
  });

  it('reports malformed lines with their numbers and keeps the good ones', () => {
    const text = [
      '{"type":"final","answer":"a","stopReason":"final","v":1,"t":"x"}',
      '{"type":"final","answer":"a"',
      '{"type":"mystery","v":1}',
      '{"type":"final","answer":"a","stopReason":"final","v":99}',
      '{"type":"iteration","v":1}',
      '[1,2]',
    ].join('\n');
    const parsed = parseTrajectory(text);
    expect(parsed.events).toHaveLength(1);
    expect(parsed.errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6]);
    expect(parsed.errors[2]?.message).toMatch(/newer than this reader/);
    expect(parsed.errors[3]?.message).toMatch(/missing turn, content, blocks/);
  });

  it('keeps reading the frozen v1 corpus', async () => {
    const parsed = await readTrajectory('test/fixtures/trajectories/v1-basic.jsonl');
    expect(parsed.errors).toEqual([]);
    expect(parsed.events.map((e) => e.type)).toEqual([
      'metadata',
      'iteration',
      'iteration',
      'final',
    ]);
    const last = parsed.events.at(-1);
    expect(last?.type === 'final' && last.answer).toBe('line 3');
  });
});
