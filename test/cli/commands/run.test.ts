/**
 * `reclamo run` end to end: the built CLI as a child process, the mock
 * OpenAI-compatible server on 127.0.0.1 with scripted answers, the real
 * Python worker and real files. A sentinel key is configured throughout and
 * searched for in every file and output the tests produce.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockPolicy, MockRequest, MockServer } from '../../../src/testing/index.js';
import { startMockServer } from '../../../src/testing/index.js';
import { readTrajectory } from '../../../src/trace/reader.js';
import { freshDir, needleFile } from '../../rlm/helpers.js';
import { type CliResult, runCli, writeMockProfile } from '../../support/run-built-cli.js';

const SENTINEL = 'sk-SENTINEL-7f3a9c1e-never-log-me';
const dir = freshDir('cli-run');
const outputs: string[] = [];
let server: MockServer;
let policy: MockPolicy = () => 'FINAL(unset)';

const isForced = (r: MockRequest) =>
  (r.messages.at(-1)?.content ?? '').includes('No more code will run');
const lastText = (r: MockRequest) => r.messages.at(-1)?.content ?? '';

function profileFile(name: string, extra = ''): string {
  return writeMockProfile(dir, {
    baseUrl: server.url,
    file: `${name}.toml`,
    apiKeyEnv: 'RECLAMO_TEST_KEY',
    settings: { concurrency: 4, context_tokens: 32768 },
    extra,
  });
}

async function cli(
  args: string[],
  options: { profile?: string; stdin?: string } = {},
): Promise<CliResult> {
  const res = await runCli(['run', '--profile', 'mock', '--log-dir', join(dir, 'runs'), ...args], {
    home: dir,
    profiles: options.profile ?? profileFile('default'),
    env: { RECLAMO_TEST_KEY: SENTINEL },
    stdin: options.stdin ?? '',
  });
  outputs.push(res.stdout, res.stderr);
  return res;
}

const GREP = "```repl\nimport re\nprint(re.search(r'passphrase is (\\S+)', context).group(1))\n```";
const grepThenFinal: MockPolicy = (r) =>
  r.messages.length === 2 ? GREP : `FINAL(${/tangerine-\d+/.exec(lastText(r))?.[0] ?? 'none'})`;

beforeAll(async () => {
  server = await startMockServer({ policy: (r) => policy(r) });
});

afterAll(async () => {
  await server.close();
  // The sentinel key must appear in no file the tests wrote and no output they printed.
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(dir);
  expect(files.filter((f) => f.endsWith('.jsonl')).length).toBeGreaterThan(5);
  for (const f of files) {
    if (f.endsWith('.toml')) continue; // the profile names the variable, not the key
    expect(readFileSync(f, 'utf8').includes(SENTINEL), f).toBe(false);
  }
  for (const out of outputs) expect(out.includes(SENTINEL)).toBe(false);
});

describe('reclamo run (CLI, mock server, real worker)', () => {
  it('answers a needle question: exit 0, the answer on stdout, the key sent only to the server', async () => {
    policy = grepThenFinal;
    const context = needleFile(dir);
    const res = await cli(['--context', context, '-q', 'Which line holds the passphrase?']);
    expect(res.stderr).toMatch(/final, 2 turns/);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('tangerine-42\n');
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SENTINEL}`);
  });

  it('--json prints the result; --sft writes the SFT file; the REPL never sees the key', async () => {
    policy = (r) =>
      r.messages.length === 2
        ? "```repl\nimport os\nprint(sorted(os.environ))\nprint([v for v in os.environ.values() if 'SENTINEL' in v])\n```"
        : 'FINAL(checked)';
    const res = await cli(['--context', needleFile(dir), '-q', 'q', '--json', '--sft']);
    expect(res.code).toBe(0);
    const result = JSON.parse(res.stdout);
    expect(result).toMatchObject({ answer: 'checked', stopReason: 'final', turns: 2, subcalls: 0 });
    expect(result.usage.root.inputTokens).toBeGreaterThan(0);
    expect(statSync(result.sftPath).size).toBeGreaterThan(0);
    const { events } = await readTrajectory(result.trajectoryPath);
    const meta = events[0];
    expect(meta?.type === 'metadata' && meta.endpoints).toEqual([
      { baseUrl: server.url, api: 'openai', roles: ['root', 'sub'], concurrency: 4 },
    ]);
    const iteration = events.find((e) => e.type === 'iteration');
    expect(iteration?.type === 'iteration' && iteration.blocks[0]?.result?.stdout).toContain('[]');
  });

  it('reads the context from stdin with --context -', async () => {
    policy = grepThenFinal;
    const res = await cli(['--context', '-', '-q', 'q'], {
      stdin: 'a\nthe passphrase is tangerine-77\nb\n',
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('tangerine-77\n');
  });

  it('--verbose prints each turn to stderr; stdout keeps only the answer', async () => {
    policy = grepThenFinal;
    const res = await cli(['--context', needleFile(dir), '-q', 'q', '--verbose']);
    expect(res.stderr).toContain('== turn 1');
    expect(res.stderr).toContain('-- output of block 1');
    expect(res.stdout).toBe('tangerine-42\n');
  });

  it('out of turns: exit 0 with the forced answer', async () => {
    policy = (r) => (isForced(r) ? 'FINAL(best guess)' : "```repl\nprint('more')\n```");
    const res = await cli([
      '--context',
      needleFile(dir),
      '-q',
      'q',
      '--max-iterations',
      '2',
      '--json',
    ]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      answer: 'best guess',
      stopReason: 'max_iterations',
      forcedFinish: { source: 'model' },
    });
  });

  it('max_errors: exit 3 with stop reason error_limit and the forced answer', async () => {
    policy = (r) => (isForced(r) ? 'FINAL(partial)' : '```repl\n1/0\n```');
    const res = await cli(['--context', needleFile(dir), '-q', 'q', '--max-errors', '2', '--json']);
    expect(res.code).toBe(3);
    expect(JSON.parse(res.stdout)).toMatchObject({ stopReason: 'error_limit', answer: 'partial' });
  });

  it('token budget: exit 3 with stop reason token_budget', async () => {
    policy = () => ({
      content: "```repl\nprint('x')\n```",
      usage: { inputTokens: 500, outputTokens: 100 },
    });
    const res = await cli([
      '--context',
      needleFile(dir),
      '-q',
      'q',
      '--token-budget',
      '1000',
      '--json',
    ]);
    expect(res.code).toBe(3);
    expect(JSON.parse(res.stdout)).toMatchObject({ stopReason: 'token_budget', turns: 2 });
  });

  it('max_timeout: a hung server is cut; the run ends well within max_timeout plus the bound', async () => {
    policy = (r) => (isForced(r) ? 'FINAL(out of time)' : { fault: { kind: 'hang' } });
    const res = await cli([
      '--context',
      needleFile(dir),
      '-q',
      'q',
      '--max-timeout',
      '2',
      '--json',
    ]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      stopReason: 'max_timeout',
      answer: 'out of time',
    });
    expect(res.ms).toBeLessThan(2000 + 8000);
  });

  it('an endpoint failure exits 1', async () => {
    policy = () => ({ fault: { kind: 'status', status: 400, body: 'bad request' } });
    const res = await cli(['--context', needleFile(dir), '-q', 'q']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/reclamo: The run stopped/);
  });

  it('configuration errors exit 2 with a clear message', async () => {
    const context = needleFile(dir);
    const tools = await cli([
      '--context',
      context,
      '-q',
      'q',
      '--protocol',
      'tools',
      '--planner-style',
      'upstream-rlm-v0',
    ]);
    expect(tools.code).toBe(2);
    expect(tools.stderr).toMatch(/tools protocol is not available with planner style upstream/);
    const prompt = await cli([
      '--context',
      context,
      '-q',
      'q',
      '--system-prompt-file',
      join(dir, 'no-such-prompt.txt'),
    ]);
    expect(prompt.code).toBe(2);
    expect(prompt.stderr).toMatch(/no-such-prompt\.txt cannot be read \(ENOENT\)/);
    const version = await cli(['--context', context, '-q', 'q', '--prompt-version', 'v9']);
    expect(version.code).toBe(2);
    expect(version.stderr).toMatch(/Unknown prompt version "v9"/);
    const missing = await cli(['--context', join(dir, 'nope.txt'), '-q', 'q']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/does not exist/);
    const style = await cli(['--context', context, '-q', 'q', '--planner-style', 'upstream']);
    expect(style.code).toBe(2);
    expect(style.stderr).toMatch(/upstream-rlm-v0/);
    // Commander's usage errors (a bad flag value, an unknown flag) are configuration errors too.
    const depth = await cli(['--context', context, '-q', 'q', '--max-depth', 'two']);
    expect(depth.code).toBe(2);
    expect(depth.stderr).toMatch(/--max-depth <n>' argument 'two' is invalid/);
    const unknown = await cli(['--context', context, '-q', 'q', '--max-dept', '2']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option '--max-dept'/);
  });

  it('llm_query_batched items run concurrently up to the endpoint limit', async () => {
    server.resetCounters();
    policy = (r) => {
      if (r.model === 'sub-model') return { content: 'ok', delayMs: 40 };
      return r.messages.length === 2
        ? "```repl\nr = llm_query_batched([f'item {i}' for i in range(20)])\nprint(len(r))\n```"
        : 'FINAL(20)';
    };
    const res = await cli(['--context', needleFile(dir), '-q', 'q', '--json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ answer: '20', subcalls: 20 });
    expect(server.counters.maxInFlight).toBe(4);
  });
});
