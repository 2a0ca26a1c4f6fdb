/** Read frames: confinement of every path the model names, tool rounds, the last request, nesting. */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBudget } from '../../src/infer/budget.js';
import { InferenceError } from '../../src/infer/errors.js';
import { infer, inferTraced } from '../../src/infer/infer.js';
import { SEARCH_LIMITS } from '../../src/infer/read/files.js';
import type { ToolCall } from '../../src/lm/model.js';
import { createOpenAICompatibleModel } from '../../src/lm/openai-compatible.js';
import { type MockServer, startMockServer } from '../../src/testing/mock-server.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { tempLogDir, traceEvents } from './helpers.js';

function workspace() {
  const base = tempLogDir('read');
  const root = join(base, 'root');
  mkdirSync(join(root, 'sub'), { recursive: true });
  writeFileSync(join(root, 'a.txt'), 'alpha needle here\nsecond line\n');
  writeFileSync(join(root, 'sub', 'b.txt'), 'beta\nanother needle\n');
  writeFileSync(join(root, '.hidden'), 'needle in a hidden file\n');
  writeFileSync(join(base, 'outside.txt'), 'SECRET needle outside the root\n');
  symlinkSync(join(base, 'outside.txt'), join(root, 'escape.txt'));
  symlinkSync(base, join(root, 'escape-dir'));
  symlinkSync(join(root, 'a.txt'), join(root, 'inside-link.txt'));
  return { base, root };
}

let callId = 0;
const call = (name: string, args: unknown): ToolCall => ({
  id: `call_${++callId}`,
  name,
  arguments: JSON.stringify(args),
});

const toolResults = (messages: { role: string; content: string }[]) =>
  messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe('read capability', () => {
  it('reads and searches under the root; refuses symlink escapes, .. and absolute paths outside', async () => {
    const { root, base } = workspace();
    const model = new ScriptedModel({
      replies: [
        {
          toolCalls: [
            call('read_file', { path: 'a.txt' }),
            call('read_file', { path: 'escape.txt' }),
            call('read_file', { path: '../outside.txt' }),
            call('read_file', { path: join(base, 'outside.txt') }),
            call('read_file', { path: 'escape-dir/outside.txt' }),
            call('read_file', { path: 'inside-link.txt' }),
            call('search_files', { pattern: 'needle' }),
            call('read_file', { path: 'a\u0000.txt' }),
          ],
        },
        'found it',
      ],
    });
    const logDir = tempLogDir('read-trace');
    const { value, traceId } = await inferTraced('Find the needle.', {
      model,
      capabilities: 'read',
      readRoots: [root],
      budget: createBudget({ calls: 4, tokens: 100_000, depth: 2 }),
      logDir,
    });
    expect(value).toBe('found it');
    const results = toolResults(model.calls[1]?.messages ?? []);
    expect(results[0]).toContain('alpha needle here');
    for (const refused of results.slice(1, 5))
      expect(refused).toMatch(/refused: .*outside the allowed folders/);
    expect(results[5]).toContain('alpha needle here');
    // The search sees a.txt and sub/b.txt; not the hidden file, not through a symlink.
    expect(results[6]).toContain('a.txt:1: alpha needle here');
    expect(results[6]).toContain(`${join('sub', 'b.txt')}:2: another needle`);
    expect(results[6]).not.toContain('SECRET');
    expect(results[6]).not.toContain('hidden');
    expect(results[7]).toMatch(/NUL/);
    for (const result of results) expect(result).not.toContain('SECRET');
    const tools = traceEvents(logDir, traceId).filter((e) => e.type === 'tool');
    expect(tools).toHaveLength(8);
    expect(tools[1]).toMatchObject({ ok: false, round: 1 });
  });

  it('stops a regex that backtracks without end and says so', async () => {
    const { root } = workspace();
    writeFileSync(join(root, 'evil.txt'), `${'a'.repeat(40)}b\n`);
    const saved = SEARCH_LIMITS.timeoutMs;
    SEARCH_LIMITS.timeoutMs = 500;
    try {
      const model = new ScriptedModel({
        replies: [
          { toolCalls: [call('search_files', { pattern: '^(a+)+$', path: 'evil.txt' })] },
          'done',
        ],
      });
      const started = Date.now();
      await infer('q', { model, capabilities: 'read', readRoots: [root], logDir: false });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(toolResults(model.calls[1]?.messages ?? [])[0]).toMatch(
        /took longer than 0.5 s and was stopped/,
      );
    } finally {
      SEARCH_LIMITS.timeoutMs = saved;
    }
  });

  it('hostile arguments get error results the model can read, never a host exception', async () => {
    const { root } = workspace();
    const model = new ScriptedModel({
      replies: [
        {
          toolCalls: [
            { id: 'x1', name: 'read_file', arguments: '{not json' },
            call('read_file', { path: 42 }),
            call('read_file', { path: 'a.txt', offset: -1 }),
            call('search_files', { pattern: '(' }),
            call('rm_rf', {}),
            call('infer', { task: '' }),
            call('infer', { task: 'x', schema: { type: 'wrong' } }),
            call('infer', { task: 'x', views: [{ path: '../outside.txt' }] }),
          ],
        },
        'ok',
      ],
    });
    await infer('q', { model, capabilities: 'read', readRoots: [root], logDir: false });
    const results = toolResults(model.calls[1]?.messages ?? []);
    expect(results).toHaveLength(8);
    expect(results[0]).toMatch(/not a JSON object/);
    expect(results[1]).toMatch(/path must be a non-empty string/);
    expect(results[2]).toMatch(/offset must be a whole number/);
    expect(results[3]).toMatch(/not a valid regular expression/);
    expect(results[4]).toMatch(/There is no tool "rm_rf"/);
    expect(results[5]).toMatch(/task must be a non-empty string/);
    expect(results[6]).toMatch(/not a valid JSON Schema/);
    expect(results[7]).toMatch(/outside the allowed folders/);
    // None of them reached the model as a frame.
    expect(model.calls).toHaveLength(2);
  });

  it('nested infer and map descend the same budget one level down, with the tree model', async () => {
    const { root } = workspace();
    const model = new ScriptedModel({
      replies: (request, index) => {
        if (index === 0) {
          return {
            toolCalls: [
              call('infer', {
                task: 'child question',
                views: [{ path: 'a.txt' }],
                schema: { type: 'integer' },
              }),
              call('map', {
                tasks: [{ task: 'm1' }, { task: 'm2', views: [{ text: 'literal', label: 'L' }] }],
              }),
            ],
          };
        }
        const user = request.messages[1]?.content ?? '';
        if (user.includes('child question')) return '7';
        if (user.includes('Task:\nm')) return 'mapped';
        return 'parent done';
      },
    });
    const budget = createBudget({ calls: 10, tokens: 100_000, depth: 2 });
    const logDir = tempLogDir('nested');
    const { value, traceId } = await inferTraced('parent', {
      model,
      capabilities: 'read',
      readRoots: [root],
      budget,
      effort: 'low',
      logDir,
    });
    expect(value).toBe('parent done');
    expect(model.calls).toHaveLength(5);
    expect(budget.remaining().calls).toBe(5);
    // Routing: the effort of the outermost call reaches every request.
    for (const c of model.calls) expect(c.reasoningEffort).toBe('low');
    const results = toolResults(model.calls[4]?.messages ?? []);
    expect(JSON.parse(results[0] ?? '')).toMatchObject({ status: 'ok', value: 7 });
    const mapped = JSON.parse(results[1] ?? '') as { status: string; traceId: string }[];
    expect(mapped.map((r) => r.status)).toEqual(['ok', 'ok']);
    const childFrame = traceEvents(logDir, mapped[0]?.traceId ?? '')[0];
    expect(childFrame).toMatchObject({
      parentId: traceId,
      origin: 'tool:map',
      budget: { depth: 1 },
    });
    const tools = traceEvents(logDir, traceId).filter((e) => e.type === 'tool');
    expect(tools[1]?.childIds).toHaveLength(2);
  });

  it('at depth 1 a nested infer comes back incomplete on depth without a call', async () => {
    const { root } = workspace();
    const model = new ScriptedModel({
      replies: [{ toolCalls: [call('infer', { task: 'deeper' })] }, 'answered alone'],
    });
    await infer('q', {
      model,
      capabilities: 'read',
      readRoots: [root],
      budget: createBudget({ calls: 5, tokens: 10_000, depth: 1 }),
      logDir: false,
    });
    expect(model.calls).toHaveLength(2);
    expect(JSON.parse(toolResults(model.calls[1]?.messages ?? [])[0] ?? '')).toMatchObject({
      status: 'incomplete',
      exhausted: 'depth',
    });
  });
});

describe('the last request of a read frame', () => {
  let server: MockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('keeps the same tool definitions with calls disabled; a call returned anyway fails the frame', async () => {
    const { root } = workspace();
    server = await startMockServer({
      policy: () => ({ toolCalls: [call('read_file', { path: 'a.txt' })] }),
    });
    const model = createOpenAICompatibleModel({
      baseUrl: server.url,
      model: 'mock-model',
      retry: { maxRetries: 0 },
    });
    const logDir = tempLogDir('last');
    const error = await infer('q', {
      model,
      capabilities: 'read',
      readRoots: [root],
      maxToolRounds: 2,
      logDir,
      _internal: { generateId: () => 'last1' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InferenceError);
    expect((error as Error).message).toMatch(
      /called read_file on its last request, where tool calls were disabled/,
    );
    const bodies = server.requests.map((r) => r.body);
    expect(bodies).toHaveLength(3);
    expect(bodies[0]?.tool_choice).toBe('auto');
    expect(bodies[1]?.tool_choice).toBe('auto');
    expect(bodies[2]?.tool_choice).toBe('none');
    expect(JSON.stringify(bodies[2]?.tools)).toBe(JSON.stringify(bodies[0]?.tools));
    // The last request extends the earlier one: the prefix stays cacheable.
    const first = JSON.stringify(bodies[1]?.messages).slice(0, -1);
    expect(JSON.stringify(bodies[2]?.messages).startsWith(first)).toBe(true);
    expect(traceEvents(logDir, 'last1').at(-1)).toMatchObject({
      status: 'error',
      error: { name: 'InferenceError' },
    });
  });

  it('when one call is left, that request is the last one', async () => {
    const { root } = workspace();
    const model = new ScriptedModel({
      replies: [{ toolCalls: [call('read_file', { path: 'a.txt' })] }, 'answer'],
    });
    await infer('q', {
      model,
      capabilities: 'read',
      readRoots: [root],
      budget: createBudget({ calls: 2, tokens: 10_000, depth: 1 }),
      logDir: false,
    });
    expect(model.calls.map((c) => c.toolChoice)).toEqual(['auto', 'none']);
  });
});
