import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResolvedProfile } from '../../../src/config/types.js';
import { runBench } from '../../../src/evals/bench/bench.js';
import type { GridCell } from '../../../src/evals/bench/grid.js';
import { plainMessages } from '../../../src/evals/plain-prompt.js';
import { countRequest } from '../../../src/lm/tokens/messages.js';
import { estimatorFor } from '../../../src/lm/tokens/select.js';
import { ScriptedModel } from '../../../src/testing/index.js';

const dir = resolve('.artifacts/test/plain-truncated');

function profile(model: string, contextTokens: number, maxTokens: number): ResolvedProfile {
  const role = {
    baseUrl: 'http://127.0.0.1:9/v1',
    api: 'openai' as const,
    concurrency: 1,
    model,
    sampling: {},
    contextTokens,
    maxTokens,
  };
  return { name: 't', source: 'test', root: role, sub: role, run: {} };
}

function cell(context: string, question = 'What is the code word?'): GridCell {
  return {
    task: 'doc',
    unit: 'chars',
    size: context.length,
    seed: 0,
    instance: () => ({
      task: 'doc',
      size: context.length,
      seed: 0,
      question,
      context: { kind: 'text', chunks: [context] },
      truth: 'x',
      score: (a) => ({ score: a === 'x' ? 1 : 0, exact: a === 'x', summary: a }),
    }),
  };
}

// English prose, digits and Chinese: where the 3.5-characters heuristic is furthest off.
const doc = Array.from(
  { length: 3000 },
  (_, i) =>
    `Entry ${i}: the ledger for 2026-${(i % 12) + 1} shows 4,${i}1.50 — 港口委员会第${i}次会议。`,
).join('\n');

async function runTruncated(model: string, context: string, window: number, out: string) {
  const reader = new ScriptedModel({ replies: 'x', modelId: model });
  const result = await runBench({
    profile: profile(model, window, 1024),
    cells: [cell(context)],
    modes: ['plain-truncated', 'plain'],
    plainModel: reader,
    out: join(dir, `${out}-${process.pid}.json`),
  });
  return { result, reader };
}

describe('plain-truncated', () => {
  it('sends the head of the context that fits by the root model’s own tokenizer, and no more', async () => {
    for (const model of ['qwen3-8b', 'gpt-4o']) {
      const { result, reader } = await runTruncated(model, doc, 8192, model);
      const [row, plain] = result.rows;
      const usable = 8192 - 1024;
      expect(row).toMatchObject({ mode: 'plain-truncated', status: 'ok', usableTokens: usable });
      expect(row?.estimator).toMatch(model.startsWith('qwen') ? /qwen3/ : /o200k/);
      // The whole document is far over; plain records that and sends nothing.
      expect(plain).toMatchObject({ mode: 'plain', status: 'does_not_fit' });
      expect(reader.calls).toHaveLength(1);
      const sent = reader.calls[0]?.messages ?? [];
      const estimator = await estimatorFor(model);
      const tokens = countRequest(sent, estimator);
      expect(tokens).toBe(row?.promptTokens);
      expect(tokens).toBeLessThanOrEqual(usable);
      const kept = row?.keptChars ?? 0;
      expect(row?.contextChars).toBe(doc.length);
      expect(sent[0]?.content).toContain(doc.slice(0, kept));
      expect(sent[0]?.content).toContain(`only its first ${kept.toLocaleString('en-US')} of`);
      // Tight: forty more characters of the document would not fit.
      const more = plainMessages(
        doc.slice(0, kept + 40),
        'What is the code word?',
        `(The document was too long for this request: only its first ${(kept + 40).toLocaleString('en-US')} of ${doc.length.toLocaleString('en-US')} characters are shown above.)`,
      );
      expect(countRequest(more, estimator)).toBeGreaterThan(usable);
    }
  });

  it('sends a context that fits whole, uncut and without a note', async () => {
    const small = doc.slice(0, 2000);
    const { result, reader } = await runTruncated('qwen3-8b', small, 8192, 'whole');
    expect(result.rows[0]).toMatchObject({ keptChars: 2000, contextChars: 2000, status: 'ok' });
    expect(reader.calls[0]?.messages[0]?.content).not.toContain('too long for this request');
  });

  it('records "does not fit" with the size when even the question is over the window', async () => {
    const { result, reader } = await runTruncated('qwen3-8b', doc, 1050, 'tiny');
    expect(result.rows[0]).toMatchObject({ status: 'does_not_fit', usableTokens: 26 });
    expect(result.rows[0]?.promptTokens).toBeGreaterThan(26);
    expect(reader.calls).toHaveLength(0);
  });
});
