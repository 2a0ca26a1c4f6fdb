import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/testing/index.js';

describe('ScriptedModel', () => {
  it('returns list replies in order and records each request', async () => {
    const model = new ScriptedModel({
      replies: ['first', { content: 'second', reasoning: 'why' }],
    });
    const a = await model.doGenerate({ messages: [{ role: 'user', content: 'q1' }] });
    const b = await model.doGenerate({ messages: [{ role: 'user', content: 'q2' }] });
    expect(a.content).toBe('first');
    expect(b).toMatchObject({ content: 'second', reasoning: 'why', finishReason: 'stop' });
    expect(model.calls.map((c) => c.messages[0]?.content)).toEqual(['q1', 'q2']);
    await expect(model.doGenerate({ messages: [] })).rejects.toThrow(
      /no reply scripted for call 3/,
    );
  });

  it('computes replies from the request when given a function', async () => {
    const model = new ScriptedModel({
      replies: (request, index) => `${index}:${request.messages.length}`,
    });
    const reply = await model.doGenerate({
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
      ],
    });
    expect(reply.content).toBe('0:2');
  });

  it('returns think-free content, like the HTTP adapters: scripted <think> blocks become reasoning', async () => {
    const model = new ScriptedModel({
      replies: [
        { content: '<think>weigh it</think>\nFINAL(7)', reasoning: 'from the field' },
        'chat template opened it</think>FINAL(8)',
      ],
    });
    const first = await model.doGenerate({ messages: [] });
    expect(first).toMatchObject({ content: 'FINAL(7)', reasoning: 'from the field\n\nweigh it' });
    const second = await model.doGenerate({ messages: [] });
    expect(second).toMatchObject({ content: 'FINAL(8)', reasoning: 'chat template opened it' });
  });
});
