import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/lm/model.js';
import { upstreamRequestMessages, upstreamTurnMessages } from '../../../src/rlm/upstream/layout.js';
import { upstreamSystemPrompt } from '../../../src/rlm/upstream/system-prompt.js';
import { upstreamTurnPrompt } from '../../../src/rlm/upstream/turn-prompt.js';

describe('upstream layout', () => {
  it('orders system, metadata (assistant), history, then the unstored turn prompt', () => {
    const history: Message[] = upstreamTurnMessages('```repl\nprint(1)\n```', [
      { code: 'print(1)', result: '\n1\n' },
    ]);
    const messages = upstreamRequestMessages({
      systemPrompt: 'SYS',
      contextMetadata: 'META',
      history,
      turnPrompt: 'NEXT',
    });
    expect(messages).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'assistant', content: 'META' },
      { role: 'assistant', content: '```repl\nprint(1)\n```' },
      { role: 'user', content: 'Code executed:\n```python\nprint(1)\n```\n\nREPL output:\n\n1\n' },
      { role: 'user', content: 'NEXT' },
    ]);
    expect(history).toHaveLength(2);
  });

  it('adds one user message per block and notes as their own message, cutting each result', () => {
    const messages = upstreamTurnMessages(
      'reply',
      [
        { code: 'a', result: 'x'.repeat(30) },
        { code: 'b', result: 'No output' },
      ],
      ['FINAL was rejected.'],
      10,
    );
    expect(messages.map((m) => m.content)).toEqual([
      'reply',
      `Code executed:\n\`\`\`python\na\n\`\`\`\n\nREPL output:\n${'x'.repeat(10)}... + [20 chars...]`,
      'Code executed:\n```python\nb\n```\n\nREPL output:\nNo output',
      'FINAL was rejected.',
    ]);
  });
});

describe('upstream prompts', () => {
  it('turn 1 warns not to answer yet; later turns open with the history line; both restate the query', () => {
    const first = upstreamTurnPrompt({ query: 'How many cats?', turn: 1 });
    const later = upstreamTurnPrompt({ query: 'How many cats?', turn: 2 });
    expect(first).toMatch(/^You have not run anything in the REPL yet/);
    expect(first).toMatch(/do not give a final answer yet/);
    expect(later).toMatch(/^The conversation above is your work/);
    for (const p of [first, later]) {
      expect(p).toContain('"How many cats?"');
      expect(p).toContain('`context`');
      expect(p).toContain('```repl```');
    }
  });

  it('the system prompt explains repl fences, llm_query size and line-start FINAL / FINAL_VAR', () => {
    const text = upstreamSystemPrompt({ subcallChars: 78_336 });
    expect(text).toContain('```repl\n');
    expect(text).toContain('roughly 78,336 characters');
    expect(text).toMatch(/^FINAL\(the answer\)$/m);
    expect(text).toMatch(/^FINAL_VAR\(final_answer\)$/m);
    expect(text).not.toContain('llm_query_batched');
  });
});
