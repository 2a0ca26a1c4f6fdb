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
});
