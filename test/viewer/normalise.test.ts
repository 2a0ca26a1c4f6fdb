import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normaliseText } from '../../src/viewer/normalise.js';
import type { TimelineEntry, TurnSummary, TurnView } from '../../src/viewer/view-model.js';

const dir = join(import.meta.dirname, '..', 'fixtures', 'trajectories');
const read = (path: string) => normaliseText(readFileSync(join(dir, path), 'utf8'));
const turns = (timeline: TimelineEntry[]) =>
  timeline.filter((e): e is TurnSummary => e.kind === 'turn');

describe('normaliseText on reclamo trajectories', () => {
  const run = read('reclamo-v1/20261007T094618Z-6d710f.jsonl');

  it('reads the question, answer and how the run ended', () => {
    const { header } = run;
    expect(header.format).toBe('reclamo');
    expect(header.version).toBe(1);
    expect(header.question.text).toMatch(/^Which department has the most complaints/);
    expect(header.answer?.text).toBe('dept-07');
    expect(header.ending).toEqual({
      kind: 'forced',
      stopReason: 'max_iterations',
      forcedSource: 'variable',
      forcedReason: 'max_iterations',
      variable: 'best',
    });
    expect(header.model).toBe('qwen3-8b');
    expect(header.endpoints[0]?.roles).toEqual(['root', 'sub']);
    expect(header.issues).toEqual([]);
  });

  it('takes totals from the final record and sums the time split over turns', () => {
    const { header } = run;
    expect(header.counts).toMatchObject({ turns: 4, subcalls: 4, children: 1, compactions: 1 });
    expect(header.counts.nudges).toBe(2);
    expect(header.counts.errors).toBe(1);
    expect(header.tokens.root?.inputTokens).toBe(21840);
    expect(header.tokens.sub?.outputTokens).toBe(120);
    expect(header.subcallsByKind).toEqual({ llm_query_batched: 3, rlm_query: 1 });
    expect(header.time).toEqual({
      totalMs: 26010,
      modelMs: 4180 + 2302 + 3350 + 2280,
      replMs: 31 + 2214 + 8432,
      harnessMs: 12 + 9 + 21 + 8,
    });
  });

  it('orders the timeline as turns, then the forced finish and the final record', () => {
    const kinds = run.header.timeline.map((e) => (e.kind === 'turn' ? `turn ${e.turn}` : e.kind));
    expect(kinds).toEqual(['turn 1', 'turn 2', 'turn 3', 'turn 4', 'forced_finish', 'final']);
    const [t1, t2, t3, t4] = turns(run.header.timeline);
    expect(t1).toMatchObject({ ms: 4223, inputTokens: 3120, outputTokens: 210, blocks: 1 });
    expect(t2).toMatchObject({ subcalls: 3, errors: 1, nudges: 1, final: false });
    expect(t3).toMatchObject({ subcalls: 1, children: 1, compactions: 1 });
    expect(t4?.final).toBe(false);
    expect(t1?.preview).toBe('Let me look at the shape of the context first.');
  });

  it('puts sub-calls under their block and compaction before its turn', () => {
    const t2 = run.details[1] as TurnView;
    expect(t2.blocks[0]?.subcalls.map((s) => s.count)).toEqual([1, 2, 3]);
    const first = t2.blocks[0]?.subcalls[0];
    expect(first?.prompt.cut).toBe(true);
    expect(first?.prompt.text.length).toBe(200);
    expect(first?.prompt.chars).toBeGreaterThan(900);
    expect(first?.prompt.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first).toMatchObject({ model: 'qwen3-8b', latencyMs: 1480 });
    expect(t2.blocks[1]?.result?.error?.type).toBe('NameError');
    expect(t2.nudges[0]?.kind).toBe('error_hint');
    expect(t2.reasoning).toMatch(/Batching/);

    const t3 = run.details[2] as TurnView;
    expect(t3.events.map((e) => e.kind)).toEqual(['compaction']);
    expect(t3.blocks[0]?.subcalls[0]?.child).toEqual({ file: '20261007T094655Z-3a9e2b.jsonl' });
    expect(t3.blocks[0]?.result?.truncated).toBe(true);
    expect(t3.blocks[0]?.result?.stdoutChars).toBeGreaterThan(2000);

    const t4 = run.details[3] as TurnView;
    expect(t4.final).toMatchObject({ kind: 'final_var', accepted: false });
    expect(run.details[4]).toBeNull();
  });

  it('marks a child run with its parent', () => {
    const child = read('reclamo-v1/20261007T094655Z-3a9e2b.jsonl');
    expect(child.header.parent?.file).toBe('20261007T094618Z-6d710f.jsonl');
    expect(child.header.depth).toBe(1);
    expect(child.header.ending).toEqual({ kind: 'final', stopReason: 'final' });
  });
});

describe('normaliseText on damaged files', () => {
  const run = read('truncated/20261007T101500Z-cut001.jsonl');

  it('shows each unreadable line in place and reads the rest', () => {
    const { timeline, issues } = run.header;
    expect(issues.map((i) => i.line)).toEqual([3, 11]);
    expect(issues[0]?.error).toMatch(/^not valid JSON/);
    const kinds = timeline.map((e) => (e.kind === 'turn' ? `turn ${e.turn}` : e.kind));
    expect(kinds).toEqual(['turn 1', 'issue', 'turn 2', 'turn 3', 'issue']);
    expect(run.header.ending.kind).toBe('unfinished');
    expect(run.header.answer).toBeNull();
  });

  it('keeps sub-calls of a turn whose own record is missing', () => {
    const run2 = normaliseText(
      [
        '{"type":"metadata","v":1,"t":"x","runId":"r","query":"q","depth":0}',
        '{"type":"subcall","v":1,"turn":1,"block":1,"kind":"llm_query","promptPreview":"p","answerPreview":"a","promptChars":1,"answerChars":1}',
        '{"type":"iter',
      ].join('\n'),
    );
    const [row] = turns(run2.header.timeline);
    expect(row).toMatchObject({ partial: true, subcalls: 1 });
    const detail = run2.details[0] as TurnView;
    expect(detail.recorded).toBe(false);
    expect(detail.looseSubcalls).toHaveLength(1);
  });

  it('reads the optional compaction fields added after v1 froze', () => {
    const run4 = normaliseText(
      [
        '{"type":"metadata","v":1,"runId":"r","query":"q","depth":0}',
        '{"type":"compaction","v":1,"turn":5,"beforeTokens":30000,"afterTokens":20000,"budgetTokens":22000,"elidedTurns":[1,2],"summarized":true,"shrunkMessages":1,"estimator":"heuristic","compactAtTokens":21000,"summarizedTurns":[1,2],"shrunk":[{"turn":4,"block":1,"fromChars":90000,"toChars":6000}],"overflow":false}',
        '{"type":"iteration","v":1,"turn":5,"content":"x","blocks":[]}',
      ].join('\n'),
    );
    const detail = run4.details[0] as TurnView;
    expect(detail.events[0]).toMatchObject({
      kind: 'compaction',
      compactAtTokens: 21000,
      summarizedTurns: [1, 2],
      shrunk: [{ turn: 4, block: 1, fromChars: 90000, toChars: 6000 }],
      estimator: 'heuristic',
    });
    expect(detail.events[0]).not.toHaveProperty('overflow');
    expect(run4.header.counts.compactions).toBe(1);
  });

  it('keeps a line that is JSON but not an object, and an unknown event type, as rows', () => {
    const run3 = normaliseText(
      '[1,2]\n{"type":"metadata","v":1,"query":"q"}\n{"type":"future_thing","v":2}\n',
    );
    expect(run3.header.timeline.map((e) => e.kind)).toEqual(['issue', 'unknown']);
    expect(run3.header.issues[0]?.error).toBe('not a JSON object');
  });
});

describe('normaliseText on upstream RLM logs', () => {
  it('reads metadata, iterations, sub-calls and a nested sub-RLM', () => {
    const run = read('upstream/rlm_2026-10-02_14-03-11_5f3a9c1e.jsonl');
    const { header } = run;
    expect(header.format).toBe('upstream');
    expect(header.model).toBe('gpt-5-mini');
    expect(header.question.text).toMatch(/passphrase hidden in the context/);
    expect(header.answer?.text).toBe('velvet-harbor-42');
    expect(header.ending.kind).toBe('final');
    expect(header.counts).toMatchObject({ turns: 3, subcalls: 2, children: 1 });
    expect(header.subcallsByKind).toEqual({ llm_query: 1, rlm_query: 1 });
    expect(header.tokens.sub).toEqual({
      inputTokens: 3222,
      outputTokens: 86,
      cachedInputTokens: 0,
    });
    expect(header.tokens.root).toBeNull();
    const t2 = run.details[1] as TurnView;
    expect(t2.prompt?.messages).toBe(4);
    expect(t2.blocks[0]?.result?.locals?.map(([k]) => k)).toEqual(['chunk', 'summary', 'found']);
    const nested = t2.blocks[0]?.subcalls[1];
    expect(nested?.kind).toBe('rlm_query');
    expect(nested?.latencyMs).toBe(2900);
    const child = nested?.child && 'inline' in nested.child ? nested.child.inline : undefined;
    expect(child?.header.model).toBe('gpt-5-nano');
    expect(child?.header.answer?.text).toBe('velvet-harbor-42');
    expect(child?.details.filter(Boolean)).toHaveLength(2);
  });

  it('reads the string-typed fields of older files', () => {
    const run = read('upstream/rlm_2025-11-20_09-12-40_0a1b2c3d.jsonl');
    const { header } = run;
    expect(header.maxDepth).toBe(1);
    expect(header.settings).toContainEqual(['backend kwargs', "{'model_name': 'gpt-4o'}"]);
    const [t1, t2] = turns(header.timeline);
    expect(t1).toMatchObject({ ms: 3200, errors: 1 });
    expect(t1?.replMs).toBeCloseTo(13);
    expect(t2?.final).toBe(true);
    expect(header.answer?.text).toBe('17');
    expect((run.details[0] as TurnView).blocks[0]?.result?.elapsedMs).toBeCloseTo(13);
  });

  it('shows run_context lines as rows between the completions of a conversation', () => {
    const run = read('upstream/rlm_2026-10-03_08-00-00_77aa88bb.jsonl');
    const { timeline } = run.header;
    expect(timeline.map((e) => e.kind)).toEqual(['context', 'turn', 'context', 'turn']);
    expect(run.header.question.text).toBe('Summarise chapter 1.');
    expect(run.header.answer?.text).toBe('The crew mutinies.');
    const second = timeline[2];
    expect(second?.kind === 'context' && second.sessionMode).toBe('persistent');
  });
});
