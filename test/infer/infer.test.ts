import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBudget } from '../../src/infer/budget.js';
import { ContractError, PartialResultError, ViewError } from '../../src/infer/errors.js';
import type { InferEvent } from '../../src/infer/events.js';
import { infer, inferTraced } from '../../src/infer/infer.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { countingIds, tempLogDir, traceEvents } from './helpers.js';

const budget = () => createBudget({ calls: 8, tokens: 50_000, depth: 2 });

describe('infer: text contract', () => {
  it('returns the reply as a string in a private conversation laid out views, shape, task', async () => {
    const model = new ScriptedModel({ replies: ['The file keeps three invariants.'] });
    const logDir = tempLogDir('text');
    const value = await infer('List the invariants.', {
      model,
      budget: budget(),
      views: ['alpha beta', { label: 'notes', content: 'gamma' }],
      logDir,
    });
    expect(value).toBe('The file keeps three invariants.');
    expect(model.calls).toHaveLength(1);
    const messages = model.calls[0]?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    const user = messages[1]?.content ?? '';
    const at = (s: string) => user.indexOf(s);
    expect(at('alpha beta')).toBeGreaterThan(0);
    expect(at('<view label="notes"')).toBeGreaterThan(at('alpha beta'));
    expect(at('Answer shape')).toBeGreaterThan(at('gamma'));
    expect(at('List the invariants.')).toBeGreaterThan(at('Answer shape'));
  });

  it('sends the tranche as the output limit', async () => {
    const model = new ScriptedModel({ replies: ['ok'] });
    await infer('Say ok.', {
      model,
      budget: createBudget({ calls: 2, tokens: 2_000, depth: 1 }),
      logDir: false,
    });
    expect(model.calls[0]?.maxTokens).toBe(500);
  });

  it('refuses an empty task before any call', async () => {
    const model = new ScriptedModel({ replies: ['x'] });
    await expect(infer('  ', { model, logDir: false })).rejects.toThrow(/non-empty string/);
    expect(model.calls).toHaveLength(0);
  });
});

describe('infer: schema contracts', () => {
  const schema = {
    type: 'object',
    properties: { invariants: { type: 'array', items: { type: 'string' } } },
    required: ['invariants'],
  };

  it('returns the parsed, validated value; a fenced reply is read as its inside', async () => {
    const model = new ScriptedModel({ replies: ['```json\n{"invariants": ["a", "b"]}\n```'] });
    const value = await infer('List them.', {
      model,
      budget: budget(),
      contract: schema,
      logDir: false,
    });
    expect(value).toEqual({ invariants: ['a', 'b'] });
    expect(model.calls[0]?.messages[1]?.content).toContain('"required":["invariants"]');
  });

  it('accepts any JSON value: an array, a number, a string', async () => {
    for (const [contract, reply, expected] of [
      [{ type: 'array', items: { type: 'integer' } }, '[1, 2, 3]', [1, 2, 3]],
      [{ type: 'number' }, '42.5', 42.5],
      [{ type: 'string' }, '"hi"', 'hi'],
    ] as const) {
      const model = new ScriptedModel({ replies: [reply] });
      expect(await infer('q', { model, budget: budget(), contract, logDir: false })).toEqual(
        expected,
      );
    }
  });

  it('a zod schema is converted for the prompt and types the value', async () => {
    const claims = z.object({ claims: z.array(z.string()), count: z.number().int() });
    const model = new ScriptedModel({ replies: ['{"claims": ["x"], "count": 1}'] });
    const value = await infer('q', { model, budget: budget(), contract: claims, logDir: false });
    // Typed from the zod schema: this line would not compile otherwise.
    const first: string | undefined = value.claims[0];
    expect(first).toBe('x');
    expect(value.count).toBe(1);
    expect(model.calls[0]?.messages[1]?.content).toContain('"claims"');
  });

  it('re-asks with the validator errors, then succeeds', async () => {
    const model = new ScriptedModel({
      replies: ['Sure! Here they are: a, b', '{"invariants": "a"}', '{"invariants": ["a"]}'],
    });
    const logDir = tempLogDir('repair');
    const events: InferEvent[] = [];
    const { value, traceId } = await inferTraced('List them.', {
      model,
      budget: budget(),
      contract: schema,
      logDir,
      onEvent: (e) => events.push(e),
    });
    expect(value).toEqual({ invariants: ['a'] });
    expect(model.calls).toHaveLength(3);
    const second = model.calls[1]?.messages ?? [];
    expect(second.at(-1)?.content).toMatch(/not one JSON value/);
    const third = model.calls[2]?.messages ?? [];
    expect(third.at(-1)?.content).toContain('/invariants: must be array');
    expect(events.filter((e) => e.type === 'repair')).toHaveLength(2);
    const trace = traceEvents(logDir, traceId);
    expect(trace.filter((e) => e.type === 'repair')).toHaveLength(2);
    expect(trace.at(-1)).toMatchObject({ type: 'outcome', status: 'ok', requests: 3 });
  });

  it('repairs until the budget runs out, then rejects with PartialResultError and its observation', async () => {
    const model = new ScriptedModel({ replies: (_r, i) => `not json, attempt ${i + 1}` });
    const logDir = tempLogDir('exhaust');
    const error = await infer('List them.', {
      model,
      budget: createBudget({ calls: 3, tokens: 50_000, depth: 1 }),
      contract: schema,
      logDir,
      _internal: { generateId: () => 'exhausted1' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartialResultError);
    const partial = error as PartialResultError;
    expect(model.calls).toHaveLength(3);
    expect(partial.observation).toMatchObject({
      status: 'incomplete',
      exhausted: 'calls',
      remaining: { calls: 0, depth: 1 },
      traceId: 'exhausted1',
    });
    expect(partial.observation.recent.map((r) => r.content)).toEqual([
      'not json, attempt 1',
      'not json, attempt 2',
      'not json, attempt 3',
    ]);
    expect(partial.message).toContain('inference:exhausted1');
    const outcome = traceEvents(logDir, 'exhausted1').at(-1);
    expect(outcome).toMatchObject({ type: 'outcome', status: 'incomplete' });
  });

  it('an invalid schema is a ContractError before any model call', async () => {
    const model = new ScriptedModel({ replies: ['{}'] });
    for (const contract of [{ type: 'strng' }, { type: 'object', propertes: {} }]) {
      await expect(infer('q', { model, contract, logDir: false })).rejects.toThrow(ContractError);
    }
    await expect(
      infer('q', {
        model,
        contract: { $schema: 'http://json-schema.org/draft-07/schema#' },
        logDir: false,
      }),
    ).rejects.toThrow(/2020-12/);
    await expect(infer('q', { model, contract: z.date(), logDir: false })).rejects.toThrow(
      /cannot be written as JSON Schema/,
    );
    expect(model.calls).toHaveLength(0);
  });
});

describe('infer: views', () => {
  it('records label, size and digest of every view in the trace, never a second copy', async () => {
    const logDir = tempLogDir('views');
    const file = join(logDir, 'store.txt');
    writeFileSync(file, 'héllo file\n');
    const model = new ScriptedModel({ replies: ['ok'] });
    const { traceId } = await inferTraced('Read it.', {
      model,
      budget: budget(),
      views: ['verbatim', { path: file }, { label: 'lit', content: 'abc' }],
      logDir,
    });
    const frame = traceEvents(logDir, traceId)[0];
    expect(frame).toMatchObject({ type: 'frame', task: 'Read it.', origin: 'infer' });
    expect(frame?.views).toEqual([
      {
        label: 'view 1',
        bytes: 8,
        sha256: 'b91136286b50c5be49bd3fdbd00648a98aded623894ebd9debdaa91ad844ca5c',
        source: 'text',
      },
      {
        label: 'store.txt',
        bytes: 12,
        sha256: 'f9a3d35a157fca548cfcd829dde0b31d0a2e30eabe860a9ff71451c7607c568e',
        source: 'file',
        path: file,
      },
      {
        label: 'lit',
        bytes: 3,
        sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
        source: 'literal',
      },
    ]);
  });

  it('refuses an oversized view naming it, its size and the limit; an unreadable one naming the file', async () => {
    const model = new ScriptedModel({ replies: ['ok'] });
    await expect(
      infer('q', {
        model,
        views: [{ label: 'big', content: 'x'.repeat(101) }],
        maxViewBytes: 100,
        logDir: false,
      }),
    ).rejects.toThrow(/View "big" is 101 bytes, over the limit of 100 bytes/);
    const dir = tempLogDir('bigfile');
    const path = join(dir, 'big.txt');
    writeFileSync(path, 'y'.repeat(5_000));
    await expect(
      infer('q', { model, views: [{ path }], maxViewBytes: 4_096, logDir: false }),
    ).rejects.toThrow(/View "big.txt" is 5000 bytes/);
    await expect(
      infer('q', { model, views: [{ path: join(dir, 'missing.txt') }], logDir: false }),
    ).rejects.toThrow(ViewError);
    await expect(infer('q', { model, views: [{ path: dir }], logDir: false })).rejects.toThrow(
      /is a folder/,
    );
    expect(model.calls).toHaveLength(0);
  });

  it('a hostile 3 MB reply is cut in the trace with its size and digest; the caller still gets it whole', async () => {
    const logDir = tempLogDir('huge');
    const huge = 'x'.repeat(3_000_000);
    const model = new ScriptedModel({ replies: [huge] });
    const { value, traceId } = await inferTraced('q', { model, budget: budget(), logDir });
    expect(value).toHaveLength(3_000_000);
    const response = traceEvents(logDir, traceId).find((e) => e.type === 'response');
    expect(response?.content).toHaveLength(1_000_000);
    expect(response?.cutFields).toMatchObject({ content: { chars: 3_000_000 } });
  });

  it('a log folder that cannot be made is a ConfigError before any model call', async () => {
    const logDir = tempLogDir('notdir');
    const file = join(logDir, 'a-file');
    writeFileSync(file, 'x');
    const model = new ScriptedModel({ replies: ['ok'] });
    await expect(infer('q', { model, logDir: join(file, 'runs') })).rejects.toThrow(
      /Cannot write trajectories to the folder/,
    );
    expect(model.calls).toHaveLength(0);
  });

  it('writes traces 0600 in a 0700 folder', async () => {
    const logDir = tempLogDir('perm');
    const model = new ScriptedModel({ replies: ['ok'] });
    const { traceId } = await inferTraced('q', { model, budget: budget(), logDir });
    expect(statSync(join(logDir, 'inferences')).mode & 0o777).toBe(0o700);
    expect(statSync(join(logDir, 'inferences', `${traceId}.jsonl`)).mode & 0o777).toBe(0o600);
  });
});

describe('infer: budgets', () => {
  it('no provider call starts once the budget is exhausted', async () => {
    const shared = createBudget({ calls: 1, tokens: 10_000, depth: 1 });
    const model = new ScriptedModel({ replies: ['a', 'b'] });
    await infer('one', { model, budget: shared, logDir: false });
    await expect(infer('two', { model, budget: shared, logDir: false })).rejects.toMatchObject({
      name: 'PartialResultError',
      exhausted: 'calls',
    });
    expect(model.calls).toHaveLength(1);
  });

  it('a frame at depth 0 makes no call and is incomplete on depth', async () => {
    const model = new ScriptedModel({ replies: ['a'] });
    const deep = createBudget({ calls: 5, tokens: 10_000, depth: 1 }).child();
    await expect(infer('q', { model, budget: deep, logDir: false })).rejects.toMatchObject({
      exhausted: 'depth',
    });
    expect(model.calls).toHaveLength(0);
  });

  it('a failed request ends the frame with the error; its tranche is refunded, its call spent', async () => {
    const model = new ScriptedModel({
      replies: () => {
        throw new Error('server fell over');
      },
    });
    const shared = createBudget({ calls: 4, tokens: 1_000, depth: 1 });
    await expect(infer('q', { model, budget: shared, logDir: false })).rejects.toThrow(
      'server fell over',
    );
    expect(shared.remaining()).toEqual({ calls: 3, tokens: 1_000, depth: 1 });
  });

  it('ids and clocks are injectable, so a trace is reproducible', async () => {
    const write = async () => {
      const logDir = tempLogDir('repro');
      const model = new ScriptedModel({ replies: ['same'] });
      let tick = 0;
      await infer('q', {
        model,
        budget: budget(),
        logDir,
        _internal: {
          generateId: countingIds(),
          now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)),
          clock: () => 0,
        },
      });
      return traceEvents(logDir, 't1');
    };
    expect(await write()).toEqual(await write());
  });
});
