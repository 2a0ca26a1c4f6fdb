/**
 * Class 8: oversized answers and trajectory blow-up. Every path to an answer (a
 * FINAL in a turn, the answer dict, an answer variable, the forced finish's
 * FINAL_VAR and its reply text) is offered text over the 10,000,000-character
 * limit, one of them through a 30 MB variable name. None may become the answer;
 * the trajectory stays small, each cut field keeps its full size and SHA-256,
 * and `reclamo view --export` reads it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONTAINED,
  containment,
  hostileRun,
  lastUserText,
  repl,
  serverForFile,
} from '../../support/hostile-run.js';
import { runCli } from '../../support/run-built-cli.js';

const BIG = 12_000_000;
const TURN_REPLY = `${repl(`final_answer = "b" * ${BIG}\nanswer["content"] = "c" * ${BIG}\nprint("set")`)}\nFINAL(${'a'.repeat(BIG)})`;
const FORCED_REPLY = `${'d'.repeat(BIG)}\nFINAL_VAR(${'n'.repeat(30_000_000)})`;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const served = serverForFile();

describe('class 8, oversized answers', () => {
  it('refuses every answer over the limit; the trajectory stays small and exports', async () => {
    const forcedSeen: string[] = [];
    const run = await hostileRun(served(), {
      name: 'oversized-answers',
      flags: ['--max-iterations', '1'],
      boundMs: 90_000,
      root: (n, request) => {
        if (n === 1) return { content: TURN_REPLY, chunkChars: 1 << 20 };
        forcedSeen.push(lastUserText(request));
        return { content: FORCED_REPLY, chunkChars: 1 << 20 };
      },
    });
    expect(containment(run, 90_000)).toEqual(CONTAINED);
    expect(forcedSeen).toHaveLength(1);
    const final = run.root.at(-1);
    expect(final?.type === 'final' && final.answer).toBe('');
    expect(run.stdout.length).toBeLessThan(1000);

    const iteration = run.root.find((e) => e.type === 'iteration');
    if (iteration?.type !== 'iteration') throw new Error('no iteration record');
    expect(iteration.final).toMatchObject({ kind: 'final', accepted: false, reason: 'too_long' });
    expect(iteration.nudges.map((n) => n.text).join('\n')).toMatch(/holds 12,000,000 characters/);
    expect(iteration.content.length).toBe(1_000_000);
    const turnContent = TURN_REPLY;
    expect(iteration.cutFields?.content).toEqual({
      chars: turnContent.length,
      sha256: sha(turnContent),
    });

    const forced = run.root.find((e) => e.type === 'forced_finish');
    if (forced?.type !== 'forced_finish') throw new Error('no forced_finish record');
    expect(forced.source).toBe('empty');
    expect(forced.tooLong).toEqual([
      { source: 'answer_dict', chars: BIG },
      { source: 'variable', variable: 'final_answer', chars: BIG },
      { source: 'reply_text', chars: FORCED_REPLY.length },
    ]);
    expect(forced.cutFields?.content).toEqual({
      chars: FORCED_REPLY.length,
      sha256: sha(FORCED_REPLY),
    });

    // The huge replies are each stored once, cut: the whole file is a few megabytes.
    const file = Object.keys(run.trajectories).find((f) => run.trajectories[f] === run.root) ?? '';
    expect(statSync(file).size).toBeLessThan(4_000_000);
    const html = join(run.dir, 'export.html');
    const exported = await runCli(['view', '--export', html, file], { home: run.dir });
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(html, 'utf8').length).toBeGreaterThan(1_000_000);
  }, 120_000);
});
