import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../src/lm/model.js';
import { FORCED_FINISH_GRACE_MS } from '../../src/rlm/finish/forced-finish.js';
import { lastUser, ofType, runScripted } from './helpers.js';

const isForced = (r: GenerateRequest) => lastUser(r).includes('No more code will run');

describe('run: limits and the forced finish', () => {
  it('max_iterations ends in one forced-finish call; a valid FINAL there wins (source model)', async () => {
    const { result, root, events } = await runScripted(
      'max-iterations',
      (req) =>
        isForced(req) ? 'FINAL(forced answer)' : "```repl\nresult = 'stale'\nprint('working')\n```",
      { maxIterations: 3 },
    );
    expect(result).toMatchObject({
      answer: 'forced answer',
      stopReason: 'max_iterations',
      turns: 3,
    });
    expect(result.forcedFinish).toEqual({ source: 'model' });
    expect(root.calls).toHaveLength(4);
    const forcedPrompt = lastUser(root.calls[3]);
    expect(forcedPrompt).toContain('Variable result holds:\nstale');
    expect(root.calls[3]?.thinking).toBe(false);
    expect(ofType(events, 'forced_finish')[0]).toMatchObject({
      reason: 'max_iterations',
      source: 'model',
    });
  });

  it('falls back to the answer dict, then a variable, then prose, then empty; never code', async () => {
    const code = '```repl\nprint("still going")\n```';
    const dict = await runScripted(
      'forced-dict',
      (req) =>
        isForced(req) ? code : "```repl\nanswer['content'] = 'from dict'\nresult = 'from var'\n```",
      { maxIterations: 1 },
    );
    expect(dict.result).toMatchObject({
      answer: 'from dict',
      forcedFinish: { source: 'answer_dict' },
    });

    const variable = await runScripted(
      'forced-variable',
      (req) => (isForced(req) ? code : "```repl\nfinal_answer = 'from var'\n```"),
      { maxIterations: 1 },
    );
    expect(variable.result).toMatchObject({
      answer: 'from var',
      forcedFinish: { source: 'variable', variable: 'final_answer' },
    });

    const prose = await runScripted(
      'forced-prose',
      (req) => (isForced(req) ? `The passphrase is tangerine-42.\n${code}` : '```repl\nx = 1\n```'),
      { maxIterations: 1 },
    );
    expect(prose.result).toMatchObject({
      answer: 'The passphrase is tangerine-42.',
      forcedFinish: { source: 'reply_text' },
    });

    const empty = await runScripted(
      'forced-empty',
      (req) => (isForced(req) ? code : '```repl\nx = 1\n```'),
      {
        maxIterations: 1,
      },
    );
    expect(empty.result).toMatchObject({ answer: '', forcedFinish: { source: 'empty' } });
  });

  it('max_errors consecutive failing executions: error_limit with a forced finish', async () => {
    const { result, events } = await runScripted(
      'error-limit',
      (req) => (isForced(req) ? 'FINAL(partial)' : '```repl\nraise ValueError("boom")\n```'),
      { maxErrors: 2 },
    );
    expect(result).toMatchObject({ stopReason: 'error_limit', answer: 'partial', turns: 2 });
    expect(ofType(events, 'forced_finish')[0]?.reason).toBe('error_limit');
  });

  it('a token budget stops the run with the partial answer and no extra model call', async () => {
    const { result, root } = await runScripted(
      'token-budget',
      "```repl\nanswer['content'] = 'partial from dict'\nprint('x')\n```",
      { tokenBudget: 30 },
    );
    // ScriptedModel reports 15 tokens a call: the budget is spent after two turns.
    expect(result).toMatchObject({
      stopReason: 'token_budget',
      answer: 'partial from dict',
      turns: 2,
    });
    expect(root.calls).toHaveLength(2);
  });

  it('max_timeout: a hung root request is cut at the deadline and the run ends well within the bound', async () => {
    const started = Date.now();
    const { result, events } = await runScripted(
      'deadline-hung-model',
      (req) =>
        isForced(req)
          ? 'FINAL(out of time)'
          : new Promise((_, reject) => {
              req.abortSignal?.addEventListener('abort', () => reject(new Error('aborted')));
            }),
      { maxTimeout: 2 },
    );
    const wall = Date.now() - started;
    expect(result).toMatchObject({ stopReason: 'max_timeout', answer: 'out of time' });
    expect(wall).toBeGreaterThanOrEqual(1900);
    expect(wall).toBeLessThan(2000 + FORCED_FINISH_GRACE_MS / 3);
    expect(ofType(events, 'forced_finish')[0]?.reason).toBe('max_timeout');
  });

  it('max_timeout: a long REPL block is stopped at the deadline and later blocks are skipped', async () => {
    const started = Date.now();
    const { result, events } = await runScripted(
      'deadline-repl',
      (req) =>
        isForced(req)
          ? 'FINAL(stopped)'
          : "```repl\nimport time\ntime.sleep(30)\n```\n```repl\nprint('never')\n```",
      { maxTimeout: 2, execTimeout: 60 },
    );
    const wall = Date.now() - started;
    expect(result).toMatchObject({ stopReason: 'max_timeout', answer: 'stopped' });
    expect(wall).toBeLessThan(12_000);
    const blocks = ofType(events, 'iteration')[0]?.blocks ?? [];
    expect(blocks[0]?.result?.timedOut).toBe(true);
    expect(blocks[1]?.skipped).toMatch(/time limit/);
  });

  it('no sub-call starts after the deadline (clock injected)', async () => {
    let clock = 1_000_000;
    const { result, events, sub } = await runScripted(
      'deadline-subcall',
      (req) =>
        isForced(req)
          ? 'FINAL(done)'
          : "```repl\nfirst = llm_query('one')\ntry:\n    llm_query('two')\nexcept Exception as e:\n    print('refused:', e)\n```",
      {
        maxTimeout: 60,
        subReplies: () => {
          clock += 120_000; // the first sub-call takes the run past its deadline
          return 'ok';
        },
        _internal: { now: () => clock },
      },
    );
    expect(sub.calls).toHaveLength(1);
    expect(result).toMatchObject({ stopReason: 'max_timeout', subcalls: 1, answer: 'done' });
    const out = ofType(events, 'iteration')[0]?.blocks[0]?.result?.stdout ?? '';
    expect(out).toMatch(/refused: .*time limit/);
    expect(ofType(events, 'subcall')).toHaveLength(1);
  });

  it('a cancelled run returns with stop reason aborted and makes no forced-finish call', async () => {
    const controller = new AbortController();
    const { result, root } = await runScripted(
      'aborted',
      (req) =>
        new Promise((_, reject) => {
          setTimeout(() => controller.abort(new Error('user cancelled')), 50);
          req.abortSignal?.addEventListener('abort', () => reject(new Error('aborted')));
        }),
      { abortSignal: controller.signal },
    );
    expect(result.stopReason).toBe('aborted');
    expect(root.calls).toHaveLength(1);
  });
});
