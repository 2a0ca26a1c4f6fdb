/**
 * `reclamo run --protocol tools` and `--planner-style upstream-rlm-v0` from
 * the built CLI: a child process, the mock server over real HTTP, the real
 * Python worker, and a profile file that turns the style on.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockPolicy, MockServer } from '../../../src/testing/index.js';
import { startMockServer } from '../../../src/testing/index.js';
import { readTrajectory } from '../../../src/trace/reader.js';
import { freshDir, needleFile } from '../../rlm/helpers.js';
import { type CliResult, runCli, writeMockProfile } from '../../support/run-built-cli.js';

const dir = freshDir('cli-run-protocols');
let server: MockServer;
let policy: MockPolicy = () => 'FINAL(unset)';

beforeAll(async () => {
  server = await startMockServer({ policy: (r) => policy(r) });
});
afterAll(async () => {
  await server.close();
});

function profile(extra: string): string {
  return writeMockProfile(dir, {
    baseUrl: server.url,
    apiKeyEnv: 'RECLAMO_TEST_KEY',
    settings: { context_tokens: 32768 },
    extra,
  });
}

function cli(args: string[], profilePath: string): Promise<CliResult> {
  return runCli(['run', '--profile', 'mock', '--log-dir', join(dir, 'runs'), '--json', ...args], {
    home: dir,
    profiles: profilePath,
    env: { RECLAMO_TEST_KEY: 'sk-test' },
  });
}

describe('reclamo run: protocols and planner styles', () => {
  it('--protocol tools acts through tool calls', async () => {
    policy = (r) => {
      if (r.model !== 'root-model') return 'sub';
      if (!r.messages.some((m) => m.role === 'tool')) {
        return {
          toolCalls: [
            {
              id: 'x1',
              name: 'execute_python',
              arguments: JSON.stringify({
                code: "import re\nfound = re.search(r'passphrase is (\\S+)', context).group(1)\nprint(found)",
              }),
            },
          ],
        };
      }
      return {
        toolCalls: [{ id: 'x2', name: 'final_answer', arguments: '{"variable": "found"}' }],
      };
    };
    const res = await cli(
      ['-c', needleFile(dir), '-q', 'What is the passphrase?', '--protocol', 'tools'],
      profile(''),
    );
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as { answer: string; trajectoryPath: string };
    expect(out.answer).toBe('tangerine-42');
    const { events } = await readTrajectory(out.trajectoryPath);
    expect(events.find((e) => e.type === 'metadata')).toMatchObject({ protocol: 'tools' });
  });

  it('planner_style in the profile selects the upstream layout', async () => {
    policy = (r) => {
      if (r.model !== 'root-model') return 'sub';
      const replies = r.messages.filter((m) => m.role === 'assistant').length;
      return replies === 1
        ? "```repl\nimport re\nfound = re.search(r'passphrase is (\\S+)', context).group(1)\nprint(found)\n```"
        : 'FINAL_VAR(found)';
    };
    const res = await cli(
      ['-c', needleFile(dir), '-q', 'What is the passphrase?'],
      profile('planner_style = "upstream-rlm-v0"'),
    );
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as { answer: string };
    expect(out.answer).toBe('tangerine-42');
    const root = server.requests.filter((r) => r.model === 'root-model').at(-1);
    expect(root?.messages[1]?.role).toBe('assistant');
    expect(root?.messages[1]?.content).toMatch(/^Your context is a str with \d+ total characters/);
    expect(root?.messages[3]?.content).toMatch(/^Code executed:\n```python\n/);
  });
});
