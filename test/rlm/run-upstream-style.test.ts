/**
 * The upstream-rlm-v0 planner style end to end: mock server over real HTTP,
 * the real Python worker, and exact assertions on the message order and the
 * execution-result format of the requests the server recorded.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upstreamTurnPrompt } from '../../src/rlm/protocols/upstream/turn-prompt.js';
import type { MockServer } from '../../src/testing/index.js';
import { startMockServer } from '../../src/testing/index.js';
import { freshDir, ofType } from './helpers.js';
import { runAgainstMock } from './mock-run.js';

let server: MockServer;
let script: string[] = [];

beforeAll(async () => {
  server = await startMockServer({
    policy: (r) => {
      if (r.model !== 'root-model') return 'sub answer';
      // Turn n has n - 1 earlier replies stored after the metadata message.
      const turn = r.messages.filter((m) => m.role === 'assistant').length - 1;
      return script[turn] ?? 'FINAL(out of script)';
    },
  });
});
afterAll(async () => {
  await server.close();
});

const QUERY = 'Which line holds the passphrase?';
// needleFile(): 1,000 lines, "line i: nothing to see" except line 700.
const CONTEXT_CHARS = (() => {
  let n = 0;
  for (let i = 0; i < 1000; i++) {
    n += (i === 700 ? 'the passphrase is tangerine-42' : `line ${i}: nothing to see`).length + 1;
  }
  return n;
})();

const executed = (code: string, result: string) =>
  `Code executed:\n\`\`\`python\n${code}\n\`\`\`\n\nREPL output:\n${result}`;

describe('upstream-rlm-v0 planner style (mock server, real worker)', () => {
  it('lays out system, metadata, replies with one user message per block, and an unstored turn prompt', async () => {
    const reply1 =
      'Let me look at the context.\n```repl\nn = len(context)\nprint(n)\n```\nThen a mistake:\n```repl   \nprint(missing_name)\n```';
    const reply2 = "```repl\nbig = 'a' * 25000\nprint(big)\n```";
    const reply3 =
      "```repl\nfinal_answer = [l for l in context.splitlines() if 'passphrase' in l][0]\nprint(final_answer)\n```\nFINAL_VAR(final_answer)";
    script = [reply1, reply2, reply3];
    const { result, rootRequests, events } = await runAgainstMock('upstream-layout', server, {
      plannerStyle: 'upstream-rlm-v0',
    });
    expect(result).toMatchObject({
      answer: 'the passphrase is tangerine-42',
      stopReason: 'final',
      turns: 3,
    });
    expect(rootRequests).toHaveLength(3);

    const metadata = `Your context is a str with ${CONTEXT_CHARS} total characters, and is broken up into chunks of char lengths: [${CONTEXT_CHARS}].`;
    const first = rootRequests[0]?.messages ?? [];
    expect(first.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
    expect(first[0]?.content).toMatch(/```repl\n/);
    expect(first[0]?.content).toMatch(/^FINAL_VAR\(final_answer\)$/m);
    expect(first[1]?.content).toBe(metadata);
    expect(first[2]?.content).toBe(upstreamTurnPrompt({ query: QUERY, turn: 1 }));
    expect(rootRequests[0]?.tools).toEqual([]);

    const block1 = executed(
      'n = len(context)\nprint(n)',
      `\n${CONTEXT_CHARS}\n\n\nREPL variables: ['context', 'n']\n`,
    );
    const block2 = executed(
      'print(missing_name)',
      "\n\nNameError: name 'missing_name' is not defined (line 1)\n\nREPL variables: ['context', 'n']\n",
    );
    const second = rootRequests[1]?.messages ?? [];
    expect(second).toEqual([
      first[0],
      { role: 'assistant', content: metadata },
      { role: 'assistant', content: reply1 },
      { role: 'user', content: block1 },
      { role: 'user', content: block2 },
      { role: 'user', content: upstreamTurnPrompt({ query: QUERY, turn: 2 }) },
    ]);

    // 20,000 characters kept, then how many were cut (upstream's count of the whole result).
    const full = `\n${'a'.repeat(25_000)}\n\n\nREPL variables: ['context', 'n', 'big']\n`;
    const cut = `${full.slice(0, 20_000)}... + [${full.length - 20_000} chars...]`;
    const third = rootRequests[2]?.messages ?? [];
    expect(third.slice(2)).toEqual([
      { role: 'assistant', content: reply1 },
      { role: 'user', content: block1 },
      { role: 'user', content: block2 },
      { role: 'assistant', content: reply2 },
      { role: 'user', content: executed("big = 'a' * 25000\nprint(big)", cut) },
      { role: 'user', content: upstreamTurnPrompt({ query: QUERY, turn: 3 }) },
    ]);
    for (const r of rootRequests) {
      expect(r.messages.map((m) => m.content).join('\n')).not.toMatch(/Turn \d+\/\d+/);
    }
    expect(ofType(events, 'metadata')[0]).toMatchObject({
      plannerStyle: 'upstream-rlm-v0',
      protocol: 'fence',
    });
    expect(ofType(events, 'iteration')[2]?.final).toMatchObject({
      kind: 'final_var',
      accepted: true,
    });
  });

  it('records a block whose output was cut at output_truncate_chars as truncated', async () => {
    script = ["```repl\nprint('a' * 30000)\n```", "```repl\nprint('short')\n```", 'FINAL(done)'];
    const { events, rootRequests } = await runAgainstMock('upstream-truncated', server, {
      plannerStyle: 'upstream-rlm-v0',
    });
    const [long, short] = ofType(events, 'iteration');
    expect(rootRequests[1]?.messages.at(-2)?.content).toMatch(/\.\.\. \+ \[\d+ chars\.\.\.\]$/);
    expect(long?.blocks[0]?.result).toMatchObject({ stdoutChars: 30_001, truncated: true });
    expect(short?.blocks[0]?.result?.truncated).toBe(false);
  });

  it('refuses a literal FINAL next to code, with the nudge as its own user message', async () => {
    const reply1 = "```repl\nprint('ran')\n```\nFINAL(too early)";
    script = [reply1, 'FINAL(tangerine-42)'];
    const { result, rootRequests, events } = await runAgainstMock('upstream-guards', server, {
      plannerStyle: 'upstream-rlm-v0',
    });
    expect(result).toMatchObject({ answer: 'tangerine-42', turns: 2 });
    const tail = rootRequests[1]?.messages.slice(2) ?? [];
    expect(tail.map((m) => m.role)).toEqual(['assistant', 'user', 'user', 'user']);
    expect(tail[1]?.content).toBe(
      executed("print('ran')", "\nran\n\n\nREPL variables: ['context']\n"),
    );
    expect(tail[2]?.content).toMatch(/^Your FINAL was not accepted/);
    expect(tail[3]?.content).toBe(upstreamTurnPrompt({ query: QUERY, turn: 2 }));
    const stats = ofType(events, 'final')[0]?.stats;
    expect(stats).toMatchObject({ execs: 1, rejectedFinals: 1 });
  });

  it('runs ```python fences like ```repl ones, in document order within one reply', async () => {
    const reply1 =
      "```python\nseen = ['python-1']\n```\nthen\n```repl\nseen.append('repl')\n```\n```python\nseen.append('python-2')\nprint(seen)\n```";
    script = [reply1, '```python\nprint(len(seen))\n```', 'FINAL_VAR(seen)'];
    const { result, rootRequests, events } = await runAgainstMock('upstream-python-fence', server, {
      plannerStyle: 'upstream-rlm-v0',
    });
    expect(result).toMatchObject({
      answer: "['python-1', 'repl', 'python-2']",
      stopReason: 'final',
      turns: 3,
    });
    const tail = rootRequests[1]?.messages.slice(2) ?? [];
    expect(tail.map((m) => m.role)).toEqual(['assistant', 'user', 'user', 'user', 'user']);
    expect(tail[1]?.content).toBe(
      executed("seen = ['python-1']", "REPL variables: ['context', 'seen']\n"),
    );
    expect(tail[3]?.content).toBe(
      executed(
        "seen.append('python-2')\nprint(seen)",
        "\n['python-1', 'repl', 'python-2']\n\n\nREPL variables: ['context', 'seen']\n",
      ),
    );
    const third = rootRequests[2]?.messages ?? [];
    expect(third[third.length - 2]?.content).toBe(
      executed('print(len(seen))', "\n3\n\n\nREPL variables: ['context', 'seen']\n"),
    );
    expect(ofType(events, 'final')[0]?.stats).toMatchObject({ execs: 4 });
  });

  it('has no answer dict: `answer = ...` is an ordinary variable that FINAL_VAR can return', async () => {
    const reply1 =
      "```repl\nanswer = [l for l in context.splitlines() if 'passphrase' in l][0].split()[-1]\nprint(answer)\n```";
    script = [reply1, 'FINAL_VAR(answer)'];
    const { result, rootRequests } = await runAgainstMock('upstream-no-answer-dict', server, {
      plannerStyle: 'upstream-rlm-v0',
    });
    expect(result).toMatchObject({ answer: 'tangerine-42', stopReason: 'final', turns: 2 });
    expect(rootRequests[1]?.messages[3]?.content).toBe(
      executed(
        "answer = [l for l in context.splitlines() if 'passphrase' in l][0].split()[-1]\nprint(answer)",
        "\ntangerine-42\n\n\nREPL variables: ['context', 'answer']\n",
      ),
    );
  });

  it('system_prompt_file replaces the system prompt verbatim', async () => {
    script = ['FINAL(tangerine-42)'];
    const path = join(freshDir('upstream-prompt-source'), 'prompt.txt');
    const text = 'You are a recursive planner.\n\nUse ```repl blocks.  \n';
    writeFileSync(path, text);
    const { rootRequests } = await runAgainstMock('upstream-prompt-file', server, {
      plannerStyle: 'upstream-rlm-v0',
      systemPromptFile: path,
    });
    expect(rootRequests[0]?.messages[0]).toEqual({ role: 'system', content: text });
  });
});
