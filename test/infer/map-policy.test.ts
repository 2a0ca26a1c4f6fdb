import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBudget } from '../../src/infer/budget.js';
import { ContractError } from '../../src/infer/errors.js';
import { map } from '../../src/infer/map.js';
import type { Policy } from '../../src/infer/policy/policy.js';
import { PolicyRegistry } from '../../src/infer/policy/registry.js';
import { runPolicy, runPolicyTraced } from '../../src/infer/policy/run.js';
import type { GenerateRequest } from '../../src/lm/model.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { tempLogDir, traceEvents } from './helpers.js';

const taskOf = (request: GenerateRequest) => {
  const user = request.messages[1]?.content ?? '';
  return user.slice(user.lastIndexOf('Task:\n') + 6);
};

describe('map', () => {
  it('keeps task order; a failing, an unreadable and an exhausted task do not sink the others', async () => {
    const model = new ScriptedModel({
      replies: (request) => {
        const task = taskOf(request);
        if (task === 'boom') throw new Error('model failed on boom');
        if (task === 'never valid') return 'still not JSON';
        return `answer to ${task}`;
      },
    });
    const logDir = tempLogDir('map');
    const results = await map(
      [
        'boom',
        'first',
        { task: 'unreadable', views: [{ path: join(logDir, 'missing.txt') }] },
        { task: 'second', views: ['some view'] },
        { task: 'never valid', contract: { type: 'object' } },
      ],
      {
        model,
        budget: createBudget({ calls: 6, tokens: 100_000, depth: 1 }),
        concurrency: 1,
        logDir,
      },
    );
    expect(results.map((r) => r.status)).toEqual(['error', 'ok', 'error', 'ok', 'incomplete']);
    expect(results[0]).toMatchObject({
      status: 'error',
      error: { message: 'model failed on boom' },
    });
    expect(results[1]).toMatchObject({ status: 'ok', value: 'answer to first' });
    expect(results[2]).toMatchObject({ status: 'error', error: { name: 'ViewError' } });
    expect(results[3]).toMatchObject({ status: 'ok', value: 'answer to second' });
    const last = results[4];
    if (last?.status !== 'incomplete') throw new Error('expected incomplete');
    expect(last.observation).toMatchObject({ exhausted: 'calls', remaining: { calls: 0 } });
    expect(last.observation.recent.at(-1)?.content).toBe('still not JSON');
    const ok = results[1];
    if (ok?.status !== 'ok') throw new Error('expected ok');
    expect(traceEvents(logDir, ok.traceId)[0]).toMatchObject({ origin: 'map', task: 'first' });
  });

  it('runs at most `concurrency` frames at once', async () => {
    let inFlight = 0;
    let most = 0;
    const model = new ScriptedModel({
      replies: async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return 'ok';
      },
    });
    const tasks = Array.from({ length: 20 }, (_, i) => `task ${i}`);
    const results = await map(tasks, {
      model,
      budget: createBudget({ calls: 20, tokens: 1_000_000, depth: 1 }),
      concurrency: 3,
      logDir: false,
    });
    expect(results.every((r) => r.status === 'ok')).toBe(true);
    expect(most).toBe(3);
  });

  it('refuses a bad task or schema before any frame starts', async () => {
    const model = new ScriptedModel({ replies: ['x'] });
    await expect(map(['ok', 42 as unknown as string], { model, logDir: false })).rejects.toThrow(
      /task 2 is not a task/,
    );
    await expect(
      map([{ task: 'a', contract: { type: 'nope' } }], { model, logDir: false }),
    ).rejects.toThrow(ContractError);
    await expect(map(['a'], { model, concurrency: 0, logDir: false })).rejects.toThrow(
      /concurrency/,
    );
    expect(model.calls).toHaveLength(0);
  });
});

describe('policies', () => {
  const byLine: Policy = {
    name: 'by-line',
    description: 'One subtask per line of the first view.',
    decompose: (task) => {
      const text = task.views[0];
      if (typeof text !== 'string') return null;
      return text
        .split('\n')
        .map((line) => ({ task: `Count the words in: ${line}`, contract: { type: 'integer' } }));
    },
  };

  it('decomposes, maps one level down and synthesizes in one more frame over the results, failures included', async () => {
    const registry = new PolicyRegistry();
    registry.register(byLine);
    const model = new ScriptedModel({
      replies: (request) => {
        const task = taskOf(request);
        if (task.startsWith('Count the words in: bad')) throw new Error('the model broke');
        if (task.startsWith('Count the words in:')) return String(task.split(' ').length - 4);
        return '{"total": 5}';
      },
    });
    const logDir = tempLogDir('policy');
    const budget = createBudget({ calls: 6, tokens: 100_000, depth: 2 });
    const { value, traceId } = await runPolicyTraced('How many words in total?', {
      policy: 'by-line',
      registry,
      views: ['one two three\nfour five\nbad line'],
      contract: { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] },
      model,
      budget,
      concurrency: 1,
      logDir,
    });
    expect(value).toEqual({ total: 5 });
    expect(model.calls).toHaveLength(4);
    const synthesis = model.calls.at(-1);
    const user = synthesis?.messages[1]?.content ?? '';
    expect(user).toContain('subtask 1 (ok)');
    expect(user).toContain('"value": 3');
    expect(user).toContain('subtask 3 (error)');
    expect(user).toContain('the model broke');
    expect(user).toContain('How many words in total?');
    const trace = traceEvents(logDir, traceId);
    expect(trace[0]).toMatchObject({
      type: 'frame',
      origin: 'policy:by-line',
      budget: { depth: 2 },
    });
    const children = trace.filter((e) => e.type === 'child');
    expect(children.map((c) => c.origin)).toEqual([
      'policy:by-line',
      'policy:by-line',
      'policy:by-line',
      'synthesize',
    ]);
    const firstChild = traceEvents(logDir, children[0]?.traceId as string)[0];
    expect(firstChild).toMatchObject({ parentId: traceId, budget: { depth: 1 } });
    const synthesisFrame = traceEvents(logDir, children[3]?.traceId as string)[0];
    expect(synthesisFrame).toMatchObject({ parentId: traceId, budget: { depth: 2 } });
    expect(trace.at(-1)).toMatchObject({
      type: 'outcome',
      status: 'ok',
      spent: { calls: model.calls.length },
    });
  });

  it('a policy with its own synthesize composes the value without another frame; it must meet the contract', async () => {
    const registry = new PolicyRegistry();
    const summing: Policy = {
      ...byLine,
      name: 'sum',
      synthesize: async (_task, results) =>
        results.reduce((sum, r) => sum + (r.status === 'ok' ? (r.value as number) : 0), 0),
    };
    registry.register(summing);
    const model = new ScriptedModel({
      replies: (request) => String(taskOf(request).split(' ').length - 4),
    });
    const total = await runPolicy('Total words?', {
      policy: 'sum',
      registry,
      views: ['a b\nc d e'],
      contract: { type: 'integer' },
      model,
      logDir: false,
    });
    expect(total).toBe(5);
    expect(model.calls).toHaveLength(2);
    await expect(
      runPolicy('Total words?', {
        policy: 'sum',
        registry,
        views: ['a b'],
        contract: { type: 'string' },
        model,
        logDir: false,
      }),
    ).rejects.toThrow(/synthesize returned a value that does not meet the contract/);
  });

  it('direct never decomposes: one frame; unknown names and a second "direct" are refused', async () => {
    const model = new ScriptedModel({ replies: ['the answer'] });
    expect(await runPolicy('q', { model, logDir: false })).toBe('the answer');
    expect(model.calls).toHaveLength(1);
    const registry = new PolicyRegistry();
    expect(() => registry.register({ name: 'direct', decompose: () => null })).toThrow(/built in/);
    registry.register(byLine);
    expect(() => registry.register(byLine)).toThrow(/already registered/);
    await expect(
      runPolicy('q', { policy: 'nope', registry, model, logDir: false }),
    ).rejects.toThrow(/No policy named "nope". Registered: direct, by-line/);
  });

  it('subtasks past the depth allowance come back incomplete and synthesis still runs', async () => {
    const registry = new PolicyRegistry();
    registry.register(byLine);
    const model = new ScriptedModel({ replies: ['"summary without subtasks"'] });
    const value = await runPolicy('Total?', {
      policy: 'by-line',
      registry,
      views: ['a\nb'],
      contract: { type: 'string' },
      model,
      budget: createBudget({ calls: 5, tokens: 10_000, depth: 1 }),
      logDir: false,
    });
    expect(value).toBe('summary without subtasks');
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]?.messages[1]?.content).toContain('"exhausted": "depth"');
  });
});
