import { describe, expect, it } from 'vitest';
import { readTurn } from '../../../src/evals/policies/conversation.js';
import {
  createRootPolicy,
  recogniseTask,
  rootStep,
} from '../../../src/evals/policies/root-policy.js';
import { getTask } from '../../../src/evals/tasks/index.js';
import type { LongdocTruth } from '../../../src/evals/tasks/longdoc-qa.js';
import type { NeedleTruth } from '../../../src/evals/tasks/needle.js';
import type { Message } from '../../../src/lm/model.js';
import type { MockReply } from '../../../src/testing/mock-policy.js';
import { codeOf, compiles, request, runBlock } from './helpers.js';

const SYSTEM: Message = { role: 'system', content: 'You answer questions with a Python REPL.' };

function ask(question: string): Message[] {
  return [SYSTEM, { role: 'user', content: `Question: ${question}` }];
}

async function reply(messages: Message[]): Promise<string> {
  const out = (await createRootPolicy()(request(messages))) as MockReply;
  return out.content ?? '';
}

describe('scripted root policy', () => {
  it('recognises each built-in task from its question alone', () => {
    for (const name of ['needle', 'oolong-lite', 'longdoc-qa', 'nested']) {
      const instance = getTask(name).generate({ size: name === 'nested' ? 3 : 50, seed: 0 });
      expect(recogniseTask(readTurn(request(ask(instance.question))))).toBe(name);
    }
    expect(recogniseTask(readTurn(request(ask('What is 2+2?'))))).toBeUndefined();
  });

  it('needle: finds the passphrase from what its search printed', async () => {
    const instance = getTask('needle').generate({ size: 20_000, seed: 4 });
    const messages = ask(instance.question);
    const first = await reply(messages);
    const printed = await runBlock(instance, codeOf(first));
    messages.push({ role: 'assistant', content: first });
    messages.push({ role: 'user', content: `Output of block 1:\n${printed}\nTurn 2/20.` });
    const second = await reply(messages);
    expect(second).toContain(`FINAL(${(instance.truth as NeedleTruth).passphrase})`);
    expect(instance.score(/FINAL\((.*)\)/.exec(second)?.[1] ?? '').exact).toBe(true);
  });

  it('needle: with the output hidden it searches again, then answers "not found"', async () => {
    const instance = getTask('needle').generate({ size: 1_000, seed: 4 });
    const messages = ask(instance.question);
    for (let turn = 0; turn < 2; turn++) {
      const content = await reply(messages);
      compiles(codeOf(content));
      messages.push({ role: 'assistant', content });
      messages.push({
        role: 'user',
        content: 'Output of block 1:\n\n... [212 characters cut] ...\n',
      });
    }
    expect(await reply(messages)).toContain('FINAL(not found)');
  });

  it('longdoc-qa: two searches, owner then office, give the right cities', async () => {
    const instance = getTask('longdoc-qa').generate({ size: 120, seed: 9 });
    const messages = ask(instance.question);
    for (let turn = 0; turn < 2; turn++) {
      const content = await reply(messages);
      const printed = await runBlock(instance, codeOf(content));
      messages.push({ role: 'assistant', content });
      messages.push({ role: 'user', content: `Output of block 1:\n${printed}` });
    }
    const last = await reply(messages);
    const answer = /FINAL\((.*)\)/.exec(last)?.[1] ?? '';
    const truth = instance.truth as LongdocTruth;
    expect(instance.score(answer)).toMatchObject({ exact: true });
    for (const q of truth.questions) expect(answer).toContain(`${q.project}: ${q.city}`);
  });

  it('writes code Python accepts at every step of oolong-lite and nested', () => {
    const oolong = getTask('oolong-lite').generate({ size: 20, seed: 0 });
    const nested = getTask('nested').generate({ size: 4, seed: 0 });
    const heads = [
      'Output of block 1:',
      '@@HEAD appliances || [06:48:00] ticket 4498 opened: "Do not renew me next year."',
      '@@HEAD audio || {"ts":1775005520,"event":"open","id":2562,"body":"x"}',
      '@@HEAD cameras || 2026-04-01 06:10 | OPEN | TK-1511 | I was taxed twice.',
      '@@HEAD garden || 2640;o;Someone changed my username.',
    ].join('\n');
    const codes: string[] = [];
    for (const [question, system] of [
      [oolong.question, SYSTEM.content],
      [nested.question, SYSTEM.content],
      [nested.question, `${SYSTEM.content} rlm_query(question, data) starts a helper.`],
    ] as const) {
      const messages: Message[] = [
        { role: 'system', content: system },
        { role: 'user', content: question },
      ];
      for (let turn = 0; turn < 2; turn++) {
        const action = rootStep(readTurn(request(messages)));
        if (action.kind !== 'code')
          throw new Error(`turn ${turn}: expected code, got ${action.kind}`);
        codes.push(action.code);
        messages.push({ role: 'assistant', content: '```repl\n...\n```' });
        messages.push({ role: 'user', content: heads });
      }
    }
    expect(codes).toHaveLength(6);
    compiles(...codes);
  });

  it('answers an unknown question with a plain statement, not a guess', async () => {
    expect(await reply(ask('What is the capital of France?'))).toContain(
      'FINAL(The scripted offline policy has no strategy for this task)',
    );
  });

  it('speaks the tools protocol when the request offers execute_python', async () => {
    const instance = getTask('needle').generate({ size: 100, seed: 0 });
    const req = request(ask(instance.question));
    req.tools = [{ name: 'execute_python', description: '', parameters: {} }];
    const out = (await createRootPolicy()(req)) as MockReply;
    expect(out.toolCalls?.[0]?.name).toBe('execute_python');
    expect(JSON.parse(out.toolCalls?.[0]?.arguments ?? '{}').code).toContain('passphrase');
  });
});
