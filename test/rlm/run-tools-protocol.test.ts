/**
 * The tools protocol end to end: the mock server answers with tool calls over
 * real HTTP, the OpenAI-compatible adapter parses them, the real Python worker
 * runs the code, and the assertions read the requests the server recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src/lm/model.js';
import type { MockReply, MockRequest, MockServer } from '../../src/testing/index.js';
import { startMockServer } from '../../src/testing/index.js';
import { ofType } from './helpers.js';
import { runAgainstMock } from './mock-run.js';

let server: MockServer;
let script: MockReply[] = [];
let forced: MockReply | undefined;

const isForced = (r: MockRequest) =>
  (r.messages.at(-1)?.content ?? '').includes('No more code will run');

beforeAll(async () => {
  server = await startMockServer({
    policy: (r) => {
      if (r.model !== 'root-model') return 'sub answer';
      if (isForced(r)) return forced ?? 'FINAL(nothing)';
      const turns = r.messages.filter((m) => m.role === 'assistant').length;
      return script[turns] ?? 'FINAL(out of script)';
    },
  });
});
afterAll(async () => {
  await server.close();
});

const call = (id: string, name: string, args: unknown): ToolCall => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});
const tools = (...calls: ToolCall[]): MockReply => ({ content: '', toolCalls: calls });

describe('tools protocol (mock server tool calls, real worker)', () => {
  it('runs code through execute_python, honours one slip, refuses bad final_answer calls, then finishes', async () => {
    script = [
      // 1: a syntax error, then a search, in one reply
      tools(
        call('c1', 'execute_python', { code: 'print(' }),
        call('c2', 'execute_python', {
          code: "hits = [l for l in context.splitlines() if 'passphrase' in l]\nprint(hits)",
        }),
      ),
      // 2: fenced code written as text (first slip: honoured)
      { content: "I'll keep it.\n```python\nfound = hits[0].split()[-1]\nprint(found)\n```" },
      // 3: both arguments, and a tool that does not exist
      tools(
        call('c3', 'final_answer', { answer: 'x', variable: 'found' }),
        call('c4', 'search', { q: 'passphrase' }),
      ),
      // 4: arguments that are not JSON
      tools(call('c5', 'final_answer', '{"answer": "tangerine')),
      // 5: FINAL as text again (second slip: only a nudge)
      { content: 'FINAL(tangerine-42)' },
      // 6: a valid final
      tools(call('c6', 'final_answer', { variable: 'found' })),
    ];
    const { result, events, rootRequests } = await runAgainstMock('tools-e2e', server, {
      protocol: 'tools',
    });
    expect(result).toMatchObject({ answer: 'tangerine-42', stopReason: 'final', turns: 6 });
    expect(rootRequests).toHaveLength(6);
    for (const r of rootRequests) {
      expect(r.tools.map((t) => t.name)).toEqual(['execute_python', 'final_answer']);
    }

    // The system prompt is the tools variant; the opening user message carries the turn line.
    const [system, opening] = rootRequests[0]?.messages ?? [];
    expect(system?.content).toContain('execute_python');
    expect(system?.content).toContain('final_answer');
    expect(system?.content).not.toContain('FINAL(your answer)');
    expect(opening).toMatchObject({ role: 'user' });
    expect(opening?.content).toMatch(/Turn 1\/30\.$/);

    // Turn 1 appended: assistant with both calls, one tool message per call in order, then the turn line.
    const second = rootRequests[1]?.messages.slice(2) ?? [];
    expect(second.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool', 'user']);
    expect(second[0]).toMatchObject({
      role: 'assistant',
      toolCalls: [{ id: 'c1', name: 'execute_python' }, { id: 'c2' }],
    });
    expect(second[1]).toMatchObject({ toolCallId: 'c1' });
    expect(second[1]?.content).toMatch(/SyntaxError/);
    expect(second[2]).toMatchObject({ toolCallId: 'c2' });
    expect(second[2]?.content).toContain('the passphrase is tangerine-42');
    expect(second[2]?.content).not.toMatch(/^Output of block/);
    expect(second[3]).toEqual({ role: 'user', content: 'Turn 2/30.' });

    // Turn 2 (the honoured slip): its code ran and the note says it was accepted once.
    const third = rootRequests[2]?.messages.slice(6) ?? [];
    expect(third.map((m) => m.role)).toEqual(['assistant', 'user']);
    expect(third[1]?.content).toContain('tangerine-42');
    expect(third[1]?.content).toMatch(/accepted this once/);
    expect(third[1]?.content).toMatch(/Turn 3\/30\.$/);

    // Turn 3: each refused call is answered in its own tool message.
    const fourth = rootRequests[3]?.messages.slice(8) ?? [];
    expect(fourth.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool', 'user']);
    expect(fourth[1]).toMatchObject({ toolCallId: 'c3' });
    expect(fourth[1]?.content).toMatch(/exactly one of `answer` or `variable`/);
    expect(fourth[2]).toMatchObject({ toolCallId: 'c4' });
    expect(fourth[2]?.content).toMatch(/no tool named "search"/);

    // Turn 4: malformed JSON is refused in the tool message.
    const fifth = rootRequests[4]?.messages.slice(12) ?? [];
    expect(fifth[1]).toMatchObject({ role: 'tool', toolCallId: 'c5' });
    expect(fifth[1]?.content).toMatch(/not a valid JSON object/);

    // Turn 5: the second slip is not acted on.
    const sixth = rootRequests[5]?.messages.slice(15) ?? [];
    expect(sixth.map((m) => m.role)).toEqual(['assistant', 'user']);
    expect(sixth[1]?.content).toMatch(/as text again, so nothing ran/);

    const iterations = ofType(events, 'iteration');
    expect(iterations[0]?.toolCalls?.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(iterations[1]?.protocolSlip).toEqual({ kind: 'code', honoured: true });
    expect(iterations[4]?.protocolSlip).toEqual({ kind: 'final', honoured: false });
    expect(iterations[4]?.final).toBeNull();
    expect(iterations[5]?.final).toMatchObject({
      kind: 'final_answer_tool',
      accepted: true,
      variable: 'found',
      answer: 'tangerine-42',
    });
    expect(ofType(events, 'metadata')[0]).toMatchObject({ protocol: 'tools' });
    expect(ofType(events, 'final')[0]?.stats).toMatchObject({
      execs: 3,
      syntaxErrors: 1,
      rejectedFinals: 2,
      protocolSlips: 2,
    });
  });

  it('refuses a final_answer next to execute_python and one naming a missing variable', async () => {
    script = [
      tools(
        call('a1', 'execute_python', { code: "answer_text = 'tangerine-42'\nprint(answer_text)" }),
        call('a2', 'final_answer', { answer: 'tangerine-42' }),
      ),
      tools(call('a3', 'final_answer', { variable: 'no_such_name' })),
      tools(call('a4', 'final_answer', { answer: 'tangerine-42' })),
    ];
    const { result, events, rootRequests } = await runAgainstMock('tools-refusals', server, {
      protocol: 'tools',
    });
    expect(result).toMatchObject({ answer: 'tangerine-42', turns: 3 });
    const second = rootRequests[1]?.messages ?? [];
    expect(second.at(-2)).toMatchObject({ role: 'tool', toolCallId: 'a2' });
    expect(second.at(-2)?.content).toMatch(/same reply as execute_python/);
    const third = rootRequests[2]?.messages ?? [];
    expect(third.at(-2)).toMatchObject({ role: 'tool', toolCallId: 'a3' });
    expect(third.at(-2)?.content).toMatch(/no REPL variable named no_such_name/);
    const iterations = ofType(events, 'iteration');
    expect(iterations[1]?.final).toMatchObject({ accepted: false, reason: 'missing_variable' });
    expect(ofType(events, 'final')[0]?.stats).toMatchObject({
      rejectedFinals: 2,
      protocolSlips: 0,
    });
  });

  it('nudges a reply with no tool call and no text action', async () => {
    script = [
      { content: 'Let me think about the context first.' },
      tools(call('b1', 'final_answer', { answer: 'done' })),
    ];
    const { rootRequests, events } = await runAgainstMock('tools-no-call', server, {
      protocol: 'tools',
    });
    expect(rootRequests[1]?.messages.at(-1)?.content).toMatch(
      /made no tool call.*\n\nTurn 2\/30\.$/s,
    );
    expect(ofType(events, 'final')[0]?.stats.protocolSlips).toBe(1);
    expect(ofType(events, 'iteration')[0]?.nudges[0]?.kind).toBe('no_action');
  });

  it('a bare ``` fence (a table) is no slip: nothing ran, so the one honoured slip is kept for real code', async () => {
    script = [
      { content: 'What I know so far:\n```\n| line | text |\n| 700 | ? |\n```' },
      { content: '```python\nprint([l for l in context.splitlines() if "pass" in l])\n```' },
      tools(call('d1', 'final_answer', { answer: 'tangerine-42' })),
    ];
    const { result, events, rootRequests } = await runAgainstMock('tools-bare-fence', server, {
      protocol: 'tools',
    });
    expect(result).toMatchObject({ answer: 'tangerine-42', turns: 3 });
    const [table, code] = ofType(events, 'iteration');
    expect(table?.protocolSlip).toBeUndefined();
    expect(table?.nudges.map((n) => n.kind)).toEqual(['no_action']);
    expect(rootRequests[1]?.messages.at(-1)?.content).toMatch(/made no tool call/);
    // The python fence that follows is the run's first slip, and it runs.
    expect(code?.protocolSlip).toEqual({ kind: 'code', honoured: true });
    expect(code?.blocks[0]?.result?.stdout).toContain('tangerine-42');
  });

  it('the forced finish offers final_answer and accepts a call to it', async () => {
    script = [tools(call('f1', 'execute_python', { code: "note = 'forced answer'\nprint(note)" }))];
    forced = tools(call('f2', 'final_answer', { answer: 'tangerine-42 (forced)' }));
    const { result, events } = await runAgainstMock('tools-forced', server, {
      protocol: 'tools',
      maxIterations: 1,
    });
    forced = undefined;
    expect(result).toMatchObject({
      answer: 'tangerine-42 (forced)',
      stopReason: 'max_iterations',
      forcedFinish: { source: 'model' },
    });
    const request = server.requests.filter((r) => r.model === 'root-model' && isForced(r)).at(-1);
    expect(request?.tools.map((t) => t.name)).toEqual(['final_answer']);
    expect(ofType(events, 'forced_finish')[0]).toMatchObject({ source: 'model' });
  });
});
