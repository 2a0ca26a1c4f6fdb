import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrajectory } from '../../src/trace/reader.js';
import { freshDir, lastUser, ofType, requestText, runScripted } from './helpers.js';

describe('run: sub-calls, nudges and recursion', () => {
  it('llm_query and llm_query_batched go to the sub model and are recorded', async () => {
    const { result, sub, events } = await runScripted(
      'subcalls',
      [
        "```repl\na = llm_query('hello')\nb = llm_query_batched(['x', 'y', 'z'])\nprint(a, b)\n```",
        'FINAL(ok)',
      ],
      { subReplies: (req) => `echo:${req.messages[0]?.content}` },
    );
    expect(result.subcalls).toBe(4);
    expect(sub.calls.map((c) => c.messages[0]?.content).sort()).toEqual(['hello', 'x', 'y', 'z']);
    const records = ofType(events, 'subcall');
    expect(records.map((r) => r.kind).sort()).toEqual([
      'llm_query',
      'llm_query_batched',
      'llm_query_batched',
      'llm_query_batched',
    ]);
    expect(records.map((r) => r.count).sort()).toEqual([1, 2, 3, 4]);
    expect(records[0]).toMatchObject({
      depth: 0,
      turn: 1,
      block: 1,
      endpoint: 'scripted://sub',
      model: 'sub-model',
    });
    expect(ofType(events, 'iteration')[0]?.blocks[0]?.result?.stdout).toContain(
      "echo:hello ['echo:x', 'echo:y', 'echo:z']",
    );
  });

  it('enforces the per-execution sub-call cap with an error the model sees', async () => {
    const { result, events } = await runScripted(
      'subcall-cap',
      [
        "```repl\ntry:\n    llm_query_batched(['a'] * 5)\nexcept Exception as e:\n    print('capped:', e)\n```",
        'FINAL(ok)',
      ],
      { maxSubcallsPerExec: 4 },
    );
    expect(result.subcalls).toBe(0);
    expect(ofType(events, 'iteration')[0]?.blocks[0]?.result?.stdout).toMatch(/capped: .*\b4\b/);
  });

  it('nudges a reply with neither code nor a final', async () => {
    const { root, events } = await runScripted('no-action', ['Thinking about it.', 'FINAL(x)']);
    expect(ofType(events, 'iteration')[0]?.nudges.map((n) => n.kind)).toEqual(['no_action']);
    expect(lastUser(root.calls[1])).toMatch(/no ```repl block/);
  });

  it('nudges decomposition when one sub-call gets nearly all of a large context', async () => {
    const { events, root } = await runScripted(
      'decompose',
      ["```repl\nr = llm_query('Find it: ' + context)\nprint(r)\n```", 'FINAL(x)'],
      { subcallChars: 5000 },
    );
    const nudges = ofType(events, 'iteration')[0]?.nudges ?? [];
    expect(nudges.map((n) => n.kind)).toEqual(['decompose']);
    expect(nudges[0]?.text).toContain('5,000');
    // Each nudge is its own user message.
    const users = (root.calls[1]?.messages ?? []).filter((m) => m.role === 'user');
    expect(users.at(-1)?.content).toContain('5,000');
    expect(users.at(-2)?.content).toContain('Output of block 1');
  });

  it('at max depth 1, rlm_query is a plain sub-call on the question and the data', async () => {
    const { result, sub, events } = await runScripted(
      'rlm-query-plain',
      ["```repl\nr = rlm_query('What is here?', 'some data')\nprint(r)\n```", 'FINAL(x)'],
      { subReplies: 'plain answer' },
    );
    expect(result.subcalls).toBe(1);
    expect(sub.calls[0]?.messages[0]?.content).toContain('What is here?');
    expect(sub.calls[0]?.messages[0]?.content).toContain('some data');
    expect(ofType(events, 'subcall')[0]).toMatchObject({ kind: 'rlm_query' });
    expect(ofType(events, 'subcall')[0]?.child).toBeUndefined();
  });

  it('at max depth 2, rlm_query starts a child RLM with its own REPL; its trajectory is linked', async () => {
    const dir = freshDir('depth-2-context');
    const contextPath = join(dir, 'departments.txt');
    writeFileSync(contextPath, 'sales: 3 open\nsupport: 5 open\n');
    const { result, root, events } = await runScripted(
      'depth-2',
      (req) => {
        const text = requestText(req);
        if (text.includes('Question: How many are open in support?')) {
          // The child: its context is the data the root handed over.
          return text.includes('Output of block 1')
            ? 'FINAL_VAR(n)'
            : "```repl\nn = context.split('support: ')[1].split(' ')[0]\nprint(n)\n```";
        }
        return text.includes('Output of block 1')
          ? 'FINAL_VAR(child)'
          : "```repl\nchild = rlm_query('How many are open in support?', context)\nprint(child)\n```";
      },
      { maxDepth: 2, contextPath },
    );
    expect(result).toMatchObject({
      answer: '5',
      stopReason: 'final',
      turns: 2,
      childTurns: 2,
      subcalls: 1,
    });
    expect(requestText(root.calls[0])).toContain('rlm_query(');
    const link = ofType(events, 'subcall')[0];
    expect(link).toMatchObject({ kind: 'rlm_query', depth: 0, answerChars: 1 });
    const childPath = join(dirname(result.trajectoryPath), link?.child ?? 'missing');
    expect(existsSync(childPath)).toBe(true);
    const child = await readTrajectory(childPath);
    const meta = ofType(child.events, 'metadata')[0];
    expect(meta).toMatchObject({ depth: 1, parent: { runId: result.runId, subcall: 1 } });
    // The child sits at the depth cap: its prompt does not offer rlm_query.
    const childSystem = root.calls.find((c) => requestText(c).includes('open in support?'))
      ?.messages[0]?.content;
    expect(childSystem).not.toContain('rlm_query(');
    expect(ofType(child.events, 'final')[0]).toMatchObject({ answer: '5', stopReason: 'final' });
  });

  it('retries empty cut-off content without thinking', async () => {
    const { result, root, events } = await runScripted('cut-empty', [
      { content: '', reasoning: 'long thought', finishReason: 'length' },
      'FINAL(ok)',
    ]);
    expect(result.answer).toBe('ok');
    expect(root.calls[1]?.thinking).toBe(false);
    expect(ofType(events, 'iteration')[0]).toMatchObject({ cut: 'retried_without_thinking' });
  });

  it('continues a reply cut part-way with no usable action, once, thinking off (v0.2)', async () => {
    const { result, root, events } = await runScripted('cut-continue', [
      { content: 'Let me check.\n```repl\nx = 6 *', finishReason: 'length' },
      ' 7\nprint(x)\n```',
      'FINAL_VAR(x)',
    ]);
    expect(result.answer).toBe('42');
    expect(root.calls[1]?.thinking).toBe(false);
    expect(lastUser(root.calls[1])).toMatch(/cut off/);
    expect(ofType(events, 'iteration')[0]).toMatchObject({ cut: 'continued' });
  });

  it('under v0.1 a cut reply is not continued (its incomplete block does not run)', async () => {
    const { root, events } = await runScripted(
      'cut-v01',
      [{ content: 'Let me check.\n```repl\nx = 6 *', finishReason: 'length' }, 'FINAL(no)'],
      { promptVersion: 'v0.1' },
    );
    expect(root.calls).toHaveLength(2);
    expect(ofType(events, 'iteration')[0]?.blocks).toEqual([]);
    expect(requestText(root.calls[0])).toContain('Turn 1/20');
  });
});
