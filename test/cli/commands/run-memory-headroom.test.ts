/**
 * `--memory-headroom-mb` / `memory_headroom_mb` on `reclamo run`: the built CLI
 * as a child process against the mock server with the real worker. An
 * allocation past the headroom is a MemoryError the model sees (in the root's
 * REPL and in a child RLM's), the run still answers, and bad values exit 2.
 */
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockPolicy, MockRequest, MockServer } from '../../../src/testing/index.js';
import { startMockServer } from '../../../src/testing/index.js';
import type { IterationEvent, SubcallEvent, TrajectoryEvent } from '../../../src/trace/events.js';
import { readTrajectory } from '../../../src/trace/reader.js';
import { freshDir, needleFile } from '../../rlm/helpers.js';
import { type CliResult, runCli, writeMockProfile } from '../../support/run-built-cli.js';

const dir = freshDir('cli-run-memory-headroom');
let server: MockServer;
let policy: MockPolicy = () => 'FINAL(unset)';

// 600 MB of zeroes: calloc'd, so it costs address space but no real memory when allowed.
const ALLOCATE = "```repl\nx = bytearray(600_000_000)\nprint('allocated', len(x))\n```";
const CHILD_QUESTION = 'How much can the child allocate?';

function cli(args: string[], settings: Record<string, number> = {}): Promise<CliResult> {
  const profile = writeMockProfile(dir, {
    baseUrl: server.url,
    apiKeyEnv: 'RECLAMO_TEST_KEY',
    settings: { concurrency: 2, context_tokens: 32_768, max_tokens: 1024, ...settings },
  });
  return runCli(
    [
      'run',
      '--profile',
      'mock',
      '--log-dir',
      join(dir, 'runs'),
      '--context',
      needleFile(dir),
      '-q',
      'Which line holds the passphrase?',
      '--json',
      ...args,
    ],
    { home: dir, profiles: profile, env: { RECLAMO_TEST_KEY: 'sk-test-memory-key' } },
  );
}

const turnOf = (r: MockRequest) => r.messages.filter((m) => m.role === 'assistant').length + 1;
// The child's question is its query; the root only has it in its own code (an assistant turn).
const isChild = (r: MockRequest) =>
  r.messages.some((m) => m.role === 'user' && m.content.includes(CHILD_QUESTION));

/** Turn 1 allocates; turn 2 answers with what the block printed. */
const allocateThenAnswer: MockPolicy = (r) => {
  if (turnOf(r) === 1) return ALLOCATE;
  const last = r.messages.at(-1)?.content ?? '';
  return last.includes('MemoryError') ? 'FINAL(refused)' : 'FINAL(allowed)';
};

async function run(res: CliResult): Promise<{ answer: string; path: string }> {
  expect(res.code, res.stderr).toBe(0);
  const out = JSON.parse(res.stdout) as { answer: string; trajectoryPath: string };
  return { answer: out.answer, path: out.trajectoryPath };
}

async function eventsOf(path: string): Promise<TrajectoryEvent[]> {
  const { events, errors } = await readTrajectory(path);
  expect(errors).toEqual([]);
  return events;
}

function firstBlock(events: TrajectoryEvent[]) {
  const iteration = events.find((e): e is IterationEvent => e.type === 'iteration');
  return iteration?.blocks[0]?.result;
}

beforeAll(async () => {
  server = await startMockServer({ policy: (r) => policy(r) });
});
afterAll(async () => {
  await server.close();
});

describe('reclamo run --memory-headroom-mb', () => {
  it('an allocation past the headroom is a MemoryError in the output and the run answers', async () => {
    policy = allocateThenAnswer;
    const { answer, path } = await run(await cli(['--memory-headroom-mb', '300']));
    expect(answer).toBe('refused');
    const block = firstBlock(await eventsOf(path));
    expect(block?.error?.type).toBe('MemoryError');
    expect(block?.stdout).not.toContain('allocated');
  });

  it('the default 4 GiB headroom allows the same allocation; the profile key sets it too', async () => {
    policy = allocateThenAnswer;
    const plain = await run(await cli([]));
    expect(plain.answer).toBe('allowed');
    expect(firstBlock(await eventsOf(plain.path))?.stdout).toContain('allocated 600000000');
    const fromProfile = await run(await cli([], { memory_headroom_mb: 300 }));
    expect(fromProfile.answer).toBe('refused');
    // The flag wins over the profile.
    const flagged = await run(
      await cli(['--memory-headroom-mb', '4096'], { memory_headroom_mb: 300 }),
    );
    expect(flagged.answer).toBe('allowed');
  });

  it("a child RLM's REPL gets the same headroom", async () => {
    policy = (r) => {
      if (r.model !== 'root-model') return 'sub answer';
      if (isChild(r)) return allocateThenAnswer(r);
      if (turnOf(r) === 1) {
        return `\`\`\`repl\nr = rlm_query('${CHILD_QUESTION}', 'some data')\nprint('child said', r)\n\`\`\``;
      }
      const last = r.messages.at(-1)?.content ?? '';
      return last.includes('child said refused') ? 'FINAL(child refused)' : 'FINAL(child allowed)';
    };
    const { answer, path } = await run(
      await cli(['--memory-headroom-mb', '300', '--max-depth', '2']),
    );
    expect(answer).toBe('child refused');
    const link = (await eventsOf(path)).find(
      (e): e is SubcallEvent => e.type === 'subcall' && e.kind === 'rlm_query',
    );
    expect(link?.child).toBeDefined();
    const child = await eventsOf(join(dirname(path), link?.child ?? 'missing'));
    expect(firstBlock(child)?.error?.type).toBe('MemoryError');
  });

  it('bad values exit 2 naming the flag or the key, before any model call', async () => {
    const before = server.requests.length;
    for (const value of ['0', '63', 'abc', '1.5', '-300']) {
      const res = await cli(['--memory-headroom-mb', value]);
      expect(res.code, value).toBe(2);
      expect(res.stderr).toMatch(/--memory-headroom-mb .*at least 64/);
      expect(res.stdout).toBe('');
    }
    const res = await cli([], { memory_headroom_mb: 10 });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/memory_headroom_mb.*too small.*>= 64/);
    expect(server.requests.length).toBe(before);
  });
});
