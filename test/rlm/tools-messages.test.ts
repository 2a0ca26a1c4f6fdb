import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src/lm/model.js';
import { normalizeToolCallIds, toolTurnMessages } from '../../src/rlm/tools-messages.js';

const calls: ToolCall[] = [
  { id: 'c1', name: 'execute_python', arguments: '{"code":"print(1)"}' },
  { id: 'c2', name: 'final_answer', arguments: '{"answer":"1"}' },
];

describe('toolTurnMessages', () => {
  it('appends the assistant message, one tool message per call in order, then notes and the turn line', () => {
    const messages = toolTurnMessages({
      content: 'Checking.',
      toolCalls: calls,
      toolResults: ['1\n', 'rejected: next to code'],
      notes: ['Note A', '', 'Note B'],
      turnLine: 'Turn 2/30',
    });
    expect(messages).toEqual([
      { role: 'assistant', content: 'Checking.', toolCalls: calls },
      { role: 'tool', toolCallId: 'c1', content: '1\n' },
      { role: 'tool', toolCallId: 'c2', content: 'rejected: next to code' },
      { role: 'user', content: 'Note A\n\nNote B\n\nTurn 2/30' },
    ]);
  });

  it('without tool calls gives the assistant text and one user message', () => {
    const messages = toolTurnMessages({
      content: 'hmm',
      toolCalls: [],
      toolResults: [],
      notes: ['Call a tool.'],
      turnLine: 'Turn 3/30',
    });
    expect(messages).toEqual([
      { role: 'assistant', content: 'hmm' },
      { role: 'user', content: 'Call a tool.\n\nTurn 3/30' },
    ]);
  });

  it('refuses results that do not line up with the calls', () => {
    expect(() =>
      toolTurnMessages({
        content: '',
        toolCalls: calls,
        toolResults: ['x'],
        notes: [],
        turnLine: 'T',
      }),
    ).toThrow(/2 tool calls but 1 results/);
  });
});

describe('normalizeToolCallIds', () => {
  it('fills empty and repeated ids and leaves good ones alone', () => {
    const out = normalizeToolCallIds(
      [
        { id: '', name: 'a', arguments: '' },
        { id: 'x', name: 'b', arguments: '' },
        { id: 'x', name: 'c', arguments: '' },
      ],
      4,
    );
    expect(out.map((c) => c.id)).toEqual(['call_4_0', 'x', 'call_4_2']);
  });
});
