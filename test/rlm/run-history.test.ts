/**
 * What both root prompt versions say about `history`, checked against what
 * the REPL holds: the mock server over real HTTP and the real Python worker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/testing/index.js';
import { startMockServer } from '../../src/testing/index.js';
import { runAgainstMock } from './mock-run.js';

let server: MockServer;
let script: string[] = [];

beforeAll(async () => {
  server = await startMockServer({
    policy: (r) => {
      if (r.model !== 'root-model') return 'sub answer';
      const turn = r.messages.filter((m) => m.role === 'assistant').length;
      return script[turn] ?? 'FINAL(out of script)';
    },
  });
});
afterAll(async () => {
  await server.close();
});

const fence = (code: string) => `\`\`\`repl\n${code}\n\`\`\``;

describe.each(['v0.1', 'v0.2'])('prompt %s and the `history` variable', (promptVersion) => {
  it.each(['fence', 'tools'] as const)(
    'tells the model about `history` (%s protocol)',
    async (protocol) => {
      script = ['FINAL(x)'];
      const { rootRequests } = await runAgainstMock(
        `history-prompt-${promptVersion}-${protocol}`,
        server,
        {
          promptVersion,
          protocol,
        },
      );
      const system = rootRequests[0]?.messages[0]?.content ?? '';
      expect(system).toMatch(
        /- `history`[,:] a list .*output of every block run so far, oldest first/,
      );
      expect(system).toContain('not cut to the display limit');
      expect(system).toMatch(/`history_1`, `history_2`, and so on\./);
    },
  );

  it('holds every output whole, oldest first, while the conversation shows it cut', async () => {
    script = [
      fence("print('x' * 3000)"),
      fence("print('second')"),
      // Runs before its own output is added, so `history` has the two earlier ones.
      fence("print(len(history), history[0] == 'x' * 3000, repr(history[-1]))"),
      'FINAL(done)',
    ];
    const { result, rootRequests } = await runAgainstMock(
      `history-values-${promptVersion}`,
      server,
      {
        promptVersion,
        outputTruncateChars: 500,
      },
    );
    expect(result).toMatchObject({ answer: 'done', turns: 4 });
    const shown = rootRequests[1]?.messages.at(-1)?.content ?? '';
    expect(shown).not.toContain('x'.repeat(3000));
    expect(shown).toContain('x'.repeat(200));
    const checked = rootRequests[3]?.messages.at(-1)?.content ?? '';
    expect(checked).toContain("2 True 'second'");
  });
});
