import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeyError } from '../../src/errors.js';
import { commandKey, keySourceFor } from '../../src/lm/keys.js';
import { createOpenAICompatibleModel } from '../../src/lm/openai-compatible.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

const dir = join('.artifacts', 'keys-test');
let server: MockServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.restoreAllMocks();
});

describe('key sources', () => {
  it('uses the key printed by api_key_cmd, running the command once', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const log = join(dir, 'runs.log');
    server = await startMockServer({ policy: () => 'ok' });
    const model = createOpenAICompatibleModel({
      baseUrl: server.url,
      model: 'm',
      apiKey: commandKey(`echo run >> ${log}; printf '  sk-from-cmd\\n'`),
    });
    await model.doGenerate({ messages: [{ role: 'user', content: 'a' }] });
    await model.doGenerate({ messages: [{ role: 'user', content: 'b' }] });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer sk-from-cmd',
      'Bearer sk-from-cmd',
    ]);
    expect(readFileSync(log, 'utf8')).toBe('run\n');
  });

  it('reports a failing command by exit status, never by its output', async () => {
    const error = await commandKey("printf 'sk-%s-%s' LEAKED OUTPUT; echo oops >&2; exit 3")
      .get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyError);
    expect((error as Error).message).toMatch(/exited with status 3/);
    expect((error as Error).message).not.toContain('sk-LEAKED-OUTPUT');
  });

  it('names a failing command by its program only, so a key inside the command stays hidden', async () => {
    const source = commandKey('echo sk-sentinel-in-command-0001 >/dev/null; exit 4');
    const error = await source.get().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/api_key_cmd \(echo \.\.\.\) exited with status 4/);
    expect((error as Error).message).not.toContain('sk-sentinel-in-command-0001');
    expect(source.description).not.toContain('sk-sentinel-in-command-0001');
  });

  it('refuses a command that prints nothing', async () => {
    await expect(commandKey('true').get()).rejects.toThrow(/printed nothing/);
  });

  it('reads api_key_env, falls back to the command, and lets local servers run keyless', async () => {
    const env = { MY_KEY: ' sk-env ' };
    expect(
      await keySourceFor({ baseUrl: 'https://x.example/v1', apiKeyEnv: 'MY_KEY' }, { env }).get(),
    ).toBe('sk-env');
    expect(
      await keySourceFor(
        { baseUrl: 'https://x.example/v1', apiKeyEnv: 'UNSET', apiKeyCmd: 'printf sk-cmd' },
        { env },
      ).get(),
    ).toBe('sk-cmd');
    expect(
      await keySourceFor(
        { baseUrl: 'http://localhost:8080/v1', apiKeyEnv: 'UNSET' },
        { env },
      ).get(),
    ).toBeUndefined();
    expect(await keySourceFor({ baseUrl: 'https://x.example/v1' }, { env }).get()).toBeUndefined();
    expect(() =>
      keySourceFor({ baseUrl: 'https://x.example/v1', apiKeyEnv: 'UNSET' }, { env }),
    ).toThrow(/UNSET is not set/);
  });

  it('keeps a sentinel key out of every error text and log line', async () => {
    const sentinel = 'sk-SENTINEL-0123456789abcdef';
    const written: string[] = [];
    for (const stream of [process.stdout, process.stderr]) {
      const original = stream.write.bind(stream);
      vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
        written.push(String(chunk));
        return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write);
    }
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        written.push(args.map(String).join(' '));
      });
    }
    // A hostile server that echoes the Authorization header back in its error body.
    server = await startMockServer({
      policy: (r) => ({
        fault: {
          kind: 'status',
          status: r.index === 0 ? 401 : 500,
          body: JSON.stringify({
            error: { message: `bad key ${r.headers.authorization} (${sentinel})` },
          }),
        },
      }),
    });
    const model = createOpenAICompatibleModel({
      baseUrl: server.url,
      model: 'm',
      apiKey: sentinel,
      retry: { maxRetries: 1, initialDelayMs: 1 },
    });
    const errors: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      errors.push(
        await model
          .doGenerate({ messages: [{ role: 'user', content: 'q' }] })
          .catch((e: unknown) => e),
      );
    }
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${sentinel}`);
    expect(errors).toHaveLength(2);
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      const text = `${String(error)} ${(error as Error).stack} ${JSON.stringify(error)}`;
      expect(text).toContain('HTTP');
      expect(text).not.toContain(sentinel);
      expect(text).not.toContain('SENTINEL');
    }
    expect(written.join('\n')).not.toContain('SENTINEL');
  });
});
