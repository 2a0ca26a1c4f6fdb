import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResolvedProfile } from '../../src/config/types.js';
import { readSft } from '../../src/trace/sft.js';
import { freshDir, lastUser, ofType, requestText, runScripted } from './helpers.js';

const profile: ResolvedProfile = {
  name: 'test-profile',
  source: 'built-in',
  root: {
    baseUrl: 'http://127.0.0.1:9/v1',
    api: 'openai',
    apiKeyEnv: 'MY_SECRET_ENV',
    apiKeyCmd: 'pass show key',
    concurrency: 2,
    model: 'm',
    sampling: {},
  },
  sub: {
    baseUrl: 'http://127.0.0.1:9/v1',
    api: 'openai',
    concurrency: 2,
    model: 'm',
    sampling: {},
  },
  run: { maxIterations: 9 },
};

describe('run: trajectory and SFT', () => {
  it('writes metadata, iterations with timings, and a final record; ids and time are injectable', async () => {
    let t = Date.parse('2026-10-07T09:46:18Z');
    const { result, events, root } = await runScripted(
      'trajectory',
      ['```repl\nprint(len(context))\n```', 'FINAL(7)'],
      {
        profile,
        sft: true,
        _internal: { now: () => (t += 1), generateId: () => 'abc123' },
      },
    );
    expect(basename(result.trajectoryPath)).toMatch(/^20261007T094618Z-abc123\.jsonl$/);
    const meta = ofType(events, 'metadata')[0];
    expect(meta).toMatchObject({
      runId: 'abc123',
      depth: 0,
      maxDepth: 1,
      promptVersion: 'v0.2',
      protocol: 'fence',
      context: { type: 'str' },
      endpoints: [
        { baseUrl: 'scripted://root', roles: ['root'] },
        { baseUrl: 'scripted://sub', roles: ['sub'] },
      ],
    });
    expect(meta?.profile.name).toBe('test-profile');
    const recorded = JSON.stringify(meta?.profile);
    expect(recorded).not.toContain('MY_SECRET_ENV');
    expect(recorded).not.toContain('pass show key');
    const it1 = ofType(events, 'iteration')[0];
    expect(it1).toMatchObject({ turn: 1, endpoint: 'scripted://root', model: 'root-model' });
    expect(Object.keys(it1?.timings ?? {})).toEqual(['modelMs', 'replMs', 'harnessMs']);
    expect(result.turns).toBe(2);
    // Profile values apply (max_iterations 9 from the profile).
    expect(requestText(root.calls[0])).toContain('Turn 1/9');
    const final = ofType(events, 'final')[0];
    expect(final).toMatchObject({
      answer: '7',
      stopReason: 'final',
      turns: 2,
      stats: { execs: 1 },
    });

    const sft = await readSft(result.sftPath ?? '');
    expect(sft.records).toHaveLength(2);
    expect(sft.records[0]?.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(sft.records[1]?.completion).toBe('FINAL(7)');
    expect(sft.records[1]?.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
  });

  it('describes a folder context as a dict by its shape, never its text', async () => {
    const dir = freshDir('dict-context');
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'a.txt'), 'alpha secret-a');
    writeFileSync(join(dir, 'docs', 'b.txt'), 'beta');
    const { result, root } = await runScripted(
      'dict-run',
      ['```repl\nprint(sorted(context))\n```', 'FINAL(two files)'],
      { contextPath: join(dir, 'docs') },
    );
    expect(result.answer).toBe('two files');
    const first = requestText(root.calls[0]);
    expect(first).toContain('a dict of 2 entries');
    expect(first).toContain('18 characters in total');
    expect(first).not.toContain('secret-a');
    expect(lastUser(root.calls[1])).toContain("['a.txt', 'b.txt']");
  });
});
