/**
 * `reclamo run` given bad input: the built CLI as a child process, the mock
 * server on 127.0.0.1 and the real Python worker. Each case must end fast with
 * a message that names the problem and the fix, the right exit code, and no
 * request to the model when there is nothing to ask about.
 */
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockPolicy, MockRequest, MockServer } from '../../../src/testing/index.js';
import { startMockServer } from '../../../src/testing/index.js';
import { readTrajectory } from '../../../src/trace/reader.js';
import { freshDir, needleFile } from '../../rlm/helpers.js';
import { otherUserSkipReason, publicTempDir } from '../../support/other-user.js';
import { type CliResult, runCli, spawnCli, writeMockProfile } from '../../support/run-built-cli.js';

const dir = freshDir('cli-run-bad-input');
let server: MockServer;
let policy: MockPolicy = () => 'FINAL(unset)';

function writeProfile(): string {
  return writeMockProfile(dir, {
    baseUrl: server.url,
    file: 'profiles.toml',
    settings: { concurrency: 2, context_tokens: 32768, max_iterations: 2 },
  });
}

function cli(args: string[], stdin = ''): Promise<CliResult> {
  // A hang is a failure of its own: kill the child well before the test times out.
  return runCli(['run', '--profile', 'mock', ...args], {
    home: dir,
    profiles: writeProfile(),
    stdin,
    killAfterMs: 20_000,
  });
}

beforeAll(async () => {
  server = await startMockServer({ policy: (r) => policy(r) });
});

afterAll(async () => {
  await server.close();
});

const lastUser = (r: MockRequest | undefined) =>
  r?.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
const logDir = () => ['--log-dir', join(dir, 'runs')];

describe('reclamo run: contexts with no text', () => {
  it('an empty file, empty stdin and folders with nothing loadable exit 2 before any model call', async () => {
    policy = () => 'FINAL(should not be asked)';
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '');
    const hidden = join(dir, 'only-hidden');
    mkdirSync(hidden, { recursive: true });
    writeFileSync(join(hidden, '.notes'), 'hidden text');
    const binary = join(dir, 'only-binary');
    mkdirSync(binary, { recursive: true });
    writeFileSync(join(binary, 'blob.bin'), Buffer.from([0, 1, 0xff, 0xfe, 0xc3]));
    const bare = join(dir, 'bare');
    mkdirSync(bare, { recursive: true });
    const before = server.requests.length;

    const file = await cli(['--context', empty, '-q', 'q', ...logDir()]);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain(`The context file "${empty}" is empty. Pass a file with text`);

    const stdin = await cli(['--context', '-', '-q', 'q', ...logDir()], '');
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toMatch(/Standard input was empty \(--context -\).*Pipe the text in/);

    const h = await cli(['--context', hidden, '-q', 'q', ...logDir()]);
    expect(h.code).toBe(2);
    expect(h.stderr).toMatch(/holds no text to load \(no files loaded; skipped 1 hidden/);

    const b = await cli(['--context', binary, '-q', 'q', ...logDir()]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/skipped 0 hidden \(name starts with "\."\), 1 not UTF-8 text/);

    const e = await cli(['--context', bare, '-q', 'q', ...logDir()]);
    expect(e.code).toBe(2);
    expect(e.stderr).toContain(`The context folder "${bare}" holds no text to load`);

    for (const r of [file, stdin, h, b, e]) expect(r.stderr).not.toMatch(/\n\s+at /); // no stack
    expect(server.requests.length).toBe(before);
  });

  it('a zero turn, error, depth or token limit exits 2 naming the flag', async () => {
    for (const flag of ['--max-iterations', '--max-errors', '--max-depth', '--token-budget']) {
      const res = await cli(['--context', needleFile(dir), '-q', 'q', flag, '0', ...logDir()]);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(
        `option '${flag} <n>' argument '0' is invalid. expected a whole number of at least 1`,
      );
    }
  });

  it('a question that is only whitespace exits 2 and names the flag', async () => {
    const res = await cli(['--context', needleFile(dir), '-q', '  \n ', ...logDir()]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('The question is empty. Pass the question to answer with -q');
  });
});

describe('reclamo run: a trajectory folder that cannot be written', () => {
  it('a --log-dir below a file exits 2 naming the folder and the fix', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const res = await cli([
      '--context',
      needleFile(dir),
      '-q',
      'q',
      '--log-dir',
      join(file, 'runs'),
    ]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      `Cannot write trajectories to the folder "${join(file, 'runs')}": part of the path is a file, not a folder (ENOTDIR). Pass --log-dir`,
    );
  });

  it.runIf(process.platform === 'linux')(
    'a --log-dir under /proc exits 2 at once (Node recursive mkdir spins there forever)',
    async () => {
      const res = await cli([
        '--context',
        needleFile(dir),
        '-q',
        'q',
        '--log-dir',
        '/proc/reclamo-runs',
      ]);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/Cannot write trajectories to the folder "\/proc\/reclamo-runs"/);
      expect(res.ms).toBeLessThan(15_000);
    },
  );
});

describe('reclamo run: a model that never answers', () => {
  it('empty replies every turn: exit 3, "no answer" on stderr, the trajectory kept', async () => {
    policy = () => '';
    const res = await cli(['--context', needleFile(dir), '-q', 'q', ...logDir()]);
    expect(res.code).toBe(3);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('reclamo: no answer: the model gave no usable final answer');
    const path = /trajectory (\S+\.jsonl)/.exec(res.stderr)?.[1] ?? '';
    const { events, errors } = await readTrajectory(path);
    expect(errors).toEqual([]);
    expect(events.filter((e) => e.type === 'iteration')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({
      type: 'final',
      answer: '',
      stopReason: 'max_iterations',
    });
  });
});

describe('reclamo run: a server that is not the API', () => {
  it('a 200 with an HTML page: exit 1 after one attempt, naming what came back and base_url', async () => {
    policy = () => ({
      fault: {
        kind: 'status',
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body: '<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>',
      },
    });
    const before = server.requests.length;
    const res = await cli(['--context', needleFile(dir), '-q', 'q', ...logDir()]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(
      'bad reply: expected an event stream, got text/html; charset=utf-8 with "<!doctype html><html><body><h1>Welcome to nginx!</h1>',
    );
    expect(res.stderr).toContain("Check that base_url is the API's root");
    // The same page would come back every time: no retries.
    expect(server.requests.length - before).toBe(1);
    const path = /trajectory (\S+\.jsonl)/.exec(res.stderr)?.[1] ?? '';
    const { events } = await readTrajectory(path);
    expect(events.at(-1)).toMatchObject({ type: 'final', stopReason: 'endpoint_error' });
  });
});

describe('reclamo run: the endpoint fails mid-run', () => {
  it('exit 1, and the partial answer the REPL held is printed and the trajectory kept', async () => {
    policy = (r) =>
      r.messages.length === 2
        ? "```repl\nfinal_answer = 'partial 42'\nprint(final_answer)\n```"
        : { fault: { kind: 'status', status: 400, body: 'context too long' } };
    const res = await cli(['--context', needleFile(dir), '-q', 'q', ...logDir()]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('partial 42\n');
    expect(res.stderr).toContain('The run stopped: ');
    expect(res.stderr).toContain('HTTP 400: context too long');
    const path = /trajectory (\S+\.jsonl)/.exec(res.stderr)?.[1] ?? '';
    const { events, errors } = await readTrajectory(path);
    expect(errors).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['metadata', 'iteration', 'final']);
    expect(events.at(-1)).toMatchObject({ answer: 'partial 42', stopReason: 'endpoint_error' });
  });
});

describe('reclamo run: an answer too long to return', () => {
  it('FINAL_VAR naming a 12M-character string is refused with its size; a shorter one ends the run', async () => {
    policy = (r) => {
      const turn = r.messages.filter((m) => m.role === 'assistant').length;
      if (turn === 0) {
        return "```repl\nbig = 'z' * 12_000_000\nshort = big[:5] + ' and more'\nprint(len(big), short)\n```";
      }
      return turn === 1 ? 'FINAL_VAR(big)' : 'FINAL_VAR(short)';
    };
    const res = await cli([
      ...['--context', needleFile(dir), '-q', 'q', '--json', '--max-iterations', '5'],
      ...logDir(),
    ]);
    expect(res.code).toBe(0);
    const result = JSON.parse(res.stdout);
    expect(result).toMatchObject({ answer: 'zzzzz and more', stopReason: 'final', turns: 3 });
    const { events } = await readTrajectory(result.trajectoryPath);
    const refused = events.find((e) => e.type === 'iteration' && e.turn === 2);
    expect(refused).toMatchObject({
      final: { kind: 'final_var', variable: 'big', accepted: false, reason: 'too_long' },
    });
    expect(refused?.type === 'iteration' && refused.nudges[0]?.text).toBe(
      'Your final answer (big) was not accepted: it holds 12,000,000 characters, more than the 10,000,000 an answer may have. Finish with a shorter answer: the part that answers the question, or a summary.',
    );
    // The model saw the refusal, and the trajectory did not take in the 12 MB value.
    expect(lastUser(server.requests.at(-1))).toContain('it holds 12,000,000 characters');
    expect(statSync(result.trajectoryPath).size).toBeLessThan(200_000);
  });
});

describe('reclamo run: Ctrl-C', () => {
  it('interrupts a block stuck in a loop, prints the partial answer, closes the trajectory, exits 130', async () => {
    policy = (r) =>
      r.messages.filter((m) => m.role === 'assistant').length === 0
        ? "```repl\nfinal_answer = 'partial 7'\nprint(final_answer)\n```"
        : '```repl\nwhile True:\n    pass\n```';
    const before = server.requests.length;
    const child = spawnCli(
      ['run', '--profile', 'mock', '--context', needleFile(dir), '-q', 'q', ...logDir()],
      { home: dir, profiles: writeProfile(), stdin: '' },
    );
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const closed = new Promise<number | null>((done) => child.on('close', done));
    // Once the second turn's loop has been handed out, interrupt the run.
    for (let i = 0; i < 300 && server.requests.length < before + 2; i++) {
      await new Promise((done) => setTimeout(done, 50));
    }
    await new Promise((done) => setTimeout(done, 300)); // the loop is running by now
    const sent = Date.now();
    child.kill('SIGINT');
    const code = await closed;
    expect(Date.now() - sent).toBeLessThan(10_000); // the exec timeout is 120 s
    expect(code).toBe(130);
    expect(stdout).toBe('partial 7\n');
    expect(stderr).toContain('reclamo: SIGINT: stopping the run');
    const path = /trajectory (\S+\.jsonl)/.exec(stderr)?.[1] ?? '';
    const { events } = await readTrajectory(path);
    expect(events.at(-1)).toMatchObject({
      type: 'final',
      stopReason: 'aborted',
      answer: 'partial 7',
    });
  });
});

describe('reclamo run: files it may not read', () => {
  // Root reads everything, so this runs the CLI as another user (other-user.ts).
  const asUser = { asOtherUser: true };
  const skipReason = otherUserSkipReason();
  if (skipReason) process.stderr.write(`unreadable-context run test skipped: ${skipReason}\n`);

  it.skipIf(skipReason !== undefined)(
    'an unreadable context file exits 2 naming it and the fix; a folder notes what it skipped',
    async () => {
      policy = (r) =>
        r.messages.length === 2 ? '```repl\nprint(sorted(context))\n```' : 'FINAL(listed)';
      // Folders the other user can reach, wherever the checkout is.
      const base = publicTempDir('run-unreadable');
      const open = join(base, 'open');
      mkdirSync(open, { recursive: true, mode: 0o777 });
      chmodSync(open, 0o777);
      const locked = join(open, 'locked.txt');
      writeFileSync(locked, 'secret');
      chmodSync(locked, 0o000);
      writeFileSync(join(open, 'notes.txt'), 'readable');
      chmodSync(join(open, 'notes.txt'), 0o644);
      writeFileSync(join(open, 'blob.bin'), Buffer.from([0xff, 0xfe, 0x00]));
      chmodSync(join(open, 'blob.bin'), 0o644);
      const runs = join(base, 'runs-any-user');
      mkdirSync(runs, { recursive: true });
      chmodSync(runs, 0o777);
      const profile = writeMockProfile(base, {
        baseUrl: server.url,
        file: 'profiles.toml',
        settings: { concurrency: 2, context_tokens: 32768, max_iterations: 2 },
      });
      chmodSync(profile, 0o644);
      const cliAsUser = (context: string) =>
        runCli(['run', '--profile', 'mock', '--context', context, '-q', 'q', '--log-dir', runs], {
          home: runs,
          profiles: profile,
          ...asUser,
        });

      const file = await cliAsUser(locked);
      expect(file.stderr).toContain(
        `The context file "${locked}" cannot be read: permission denied (EACCES). Fix its permissions`,
      );
      expect(file.code).toBe(2);

      const folder = await cliAsUser(open);
      expect(folder.code).toBe(0);
      expect(folder.stderr).toContain(
        'reclamo: note: loaded 1 files from the context folder; skipped 1 not UTF-8 text, 1 unreadable, 0 hidden',
      );
      expect(folder.stdout).toBe('listed\n');
    },
  );
});

describe('reclamo run: replies built to be slow to parse', () => {
  it('100,000 unclosed fences in every reply end the run in seconds, not minutes', async () => {
    policy = (r) => (r.model === 'root-model' ? '```repl\n'.repeat(100_000) : 'sub');
    const res = await cli([
      ...['--context', needleFile(dir), '-q', 'q', '--max-iterations', '1'],
      ...logDir(),
    ]);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('reclamo: no answer');
    // The forced finish's prose fallback was quadratic in the fences: about 54 s here.
    expect(res.ms).toBeLessThan(15_000);
  });

  it('150,000 unclosed <think> tags: no answer, in seconds', async () => {
    policy = (r) => (r.model === 'root-model' ? '<think>'.repeat(150_000) : 'sub');
    const res = await cli([
      ...['--context', needleFile(dir), '-q', 'q', '--max-iterations', '1'],
      ...logDir(),
    ]);
    expect(res.code).toBe(3);
    expect(res.ms).toBeLessThan(15_000); // the old think-stripping regex: 20 s per pass over this reply
  });

  it('upstream layout: 200,000 blank lines before FINAL are read in seconds', async () => {
    policy = (r) => (r.model === 'root-model' ? `${'\n'.repeat(200_000)}FINAL(found it)` : 'sub');
    const res = await cli([
      ...['--context', needleFile(dir), '-q', 'q', '--planner-style', 'upstream-rlm-v0'],
      ...logDir(),
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('found it\n');
    expect(res.ms).toBeLessThan(15_000); // the old FINAL_VAR regex: 18 s per pass over this reply
  });
});

describe('reclamo run: a long answer left in a variable', () => {
  it('out of turns, the forced finish returns all 300,000 characters of final_answer', async () => {
    policy = (r) =>
      r.messages.filter((m) => m.role === 'assistant').length === 0
        ? "```repl\nfinal_answer = 'r' * 300_000\nprint(len(final_answer))\n```"
        : 'Still thinking about it.';
    const res = await cli([
      ...['--context', needleFile(dir), '-q', 'q', '--max-iterations', '1', '--json'],
      ...logDir(),
    ]);
    expect(res.code).toBe(0);
    const result = JSON.parse(res.stdout);
    expect(result.forcedFinish).toEqual({ source: 'variable', variable: 'final_answer' });
    expect(result.answer).toBe('r'.repeat(300_000)); // was cut at 200,000 without a word
  });
});

describe('reclamo run: a key or address the server refuses', () => {
  it('401 and 404 say which profile fields to check', async () => {
    policy = () => ({
      fault: { kind: 'status', status: 401, body: '{"error":{"message":"Invalid API key"}}' },
    });
    const key = await cli(['--context', needleFile(dir), '-q', 'q', ...logDir()]);
    expect(key.code).toBe(1);
    expect(key.stderr).toContain(
      'HTTP 401: Invalid API key. The server refused the key: check api_key_env / api_key_cmd in the profile',
    );
    policy = () => ({
      fault: { kind: 'status', status: 404, body: '404 page not found', contentType: 'text/plain' },
    });
    const path = await cli(['--context', needleFile(dir), '-q', 'q', ...logDir()]);
    expect(path.code).toBe(1);
    expect(path.stderr).toContain('HTTP 404: 404 page not found. Check base_url');
  });
});

describe('reclamo run | head', () => {
  it('a reader that closes the pipe early: no stack trace, exit 0, the trajectory named', async () => {
    policy = (r) =>
      r.messages.filter((m) => m.role === 'assistant').length === 0
        ? "```repl\nfinal_answer = 'z' * 3_000_000\nprint(final_answer[:10])\n```"
        : 'FINAL_VAR(final_answer)';
    const child = spawnCli(
      [
        ...['run', '--profile', 'mock', '--context', needleFile(dir)],
        ...['-q', 'q', '--max-iterations', '5', ...logDir()],
      ],
      { home: dir, profiles: writeProfile() },
    );
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    // Like `head -c 10`: read the first piece, then close the pipe.
    child.stdout!.once('data', () => child.stdout!.destroy());
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).not.toContain('EPIPE');
    expect(stderr).toMatch(/reclamo: final, 3 turns, .*trajectory \S+\.jsonl/);
    expect(code).toBe(0);
  });
});

describe('reclamo run: a context file that is not UTF-8', () => {
  it('loads it with U+FFFD for the bad bytes and says so on stderr, naming the first one', async () => {
    policy = (r) =>
      r.messages.filter((m) => m.role === 'assistant').length === 0
        ? "```repl\nprint(context.count('\\ufffd'), len(context))\n```"
        : `FINAL(${/Output[^\n]*\n+([^\n]+)/.exec(lastUser(r))?.[1]?.trim() ?? 'none'})`;
    const file = join(dir, 'latin1.txt');
    writeFileSync(file, Buffer.from('caf\xe9 au lait\n', 'latin1'));
    const res = await cli(['--context', file, '-q', 'q', '--json', ...logDir()]);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(
      'reclamo: note: the context file is not valid UTF-8 (first bad byte at offset 3); bad bytes were replaced by U+FFFD',
    );
    const result = JSON.parse(res.stdout);
    const { events } = await readTrajectory(result.trajectoryPath);
    expect(events[0]).toMatchObject({ type: 'metadata', context: { invalidUtf8At: 3 } });
    const first = events.find((e) => e.type === 'iteration');
    expect(first?.type === 'iteration' && first.blocks[0]?.result?.stdout).toBe('1 13\n');
  });
});

describe('reclamo run: a question too long for the window', () => {
  it('exit 3 before any model call, saying to move the text into the context', async () => {
    policy = () => 'FINAL(should not be asked)';
    const before = server.requests.length;
    const question = `Summarise this: ${'lorem ipsum '.repeat(8_000)}`;
    const res = await cli(['--context', needleFile(dir), '-q', question, ...logDir()]);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(
      "no answer: the root request no longer fits the model's window (see the trajectory's context_overflow record). If the question itself is long, put that text in the context",
    );
    expect(server.requests.length).toBe(before);
  });
});
