import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';
import { echoPolicy } from '../../testing/echo-policy.js';
import type { MockPolicy } from '../../testing/mock-policy.js';
import { startMockServer } from '../../testing/mock-server.js';

/** Loads a policy module: its default export must be the policy function. */
export async function loadPolicy(file: string): Promise<MockPolicy> {
  const path = resolve(file);
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`cannot load the policy file ${path}: ${reason}`, path);
  }
  if (typeof module.default !== 'function') {
    throw new ConfigError(
      `the policy file ${path} must export a function as default (export default (request) => ({ content: '...' }))`,
      path,
    );
  }
  return module.default as MockPolicy;
}

function integer(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0)
      throw new ConfigError(`${name} must be a whole number >= 0, got "${value}"`);
    return n;
  };
}

export function registerMockServer(program: Command): void {
  program
    .command('mock-server')
    .description(
      'Run a mock model server (OpenAI-compatible and Anthropic Messages) whose answers come from a policy file',
    )
    .option('--port <n>', 'port to listen on (0 picks a free one)', integer('--port'), 0)
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option(
      '--policy <file>',
      'JavaScript module whose default export is the policy (default: echo the last message)',
    )
    .option('--latency <ms>', 'latency added to every reply, in ms', integer('--latency'), 0)
    .option('--models <ids>', 'comma-separated model ids for GET /v1/models', 'mock-model')
    .option(
      '--busy-wait',
      'stay awake while replies wait out their latency, so they leave on time (uses a core; for benchmarks)',
    )
    .action(
      async (options: {
        port: number;
        host: string;
        policy?: string;
        latency: number;
        models: string;
        busyWait?: boolean;
      }) => {
        try {
          const policy = options.policy ? await loadPolicy(options.policy) : echoPolicy;
          const server = await startMockServer({
            policy,
            port: options.port,
            host: options.host,
            latencyMs: options.latency,
            models: options.models
              .split(',')
              .map((m) => m.trim())
              .filter(Boolean),
            record: false,
            busyWait: options.busyWait === true,
          });
          process.stdout.write(`mock server listening on ${server.url}\n`);
          await new Promise<void>((done) => {
            const stop = () => {
              process.off('SIGINT', stop);
              process.off('SIGTERM', stop);
              server.close().then(done, done);
            };
            process.on('SIGINT', stop);
            process.on('SIGTERM', stop);
          });
        } catch (error) {
          process.stderr.write(
            `reclamo mock-server: ${error instanceof Error ? error.message : String(error)}\n`,
          );
          process.exitCode = error instanceof ConfigError ? 2 : 1;
        }
      },
    );
}
