/**
 * Where an endpoint's API key comes from: a literal, an environment variable,
 * or a shell command (`api_key_cmd`) run once and cached. A key never appears
 * in an error message; a failing command is reported by its exit status only.
 */
import { spawn } from 'node:child_process';
import { KeyError } from '../errors.js';

/** A source of one endpoint's key. `undefined` means the endpoint runs keyless. */
export interface KeySource {
  /** Human description for messages, never the key (e.g. `env OPENAI_API_KEY`). */
  readonly description: string;
  get(): Promise<string | undefined>;
}

/** A key given directly (library use), or no key at all. */
export function literalKey(key: string | undefined): KeySource {
  return {
    description: key === undefined ? 'no key' : 'a key given in code',
    get: async () => key,
  };
}

/** Options for running a key command. */
export interface CommandKeyOptions {
  /** Environment the command runs in. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Kill the command after this many ms. Default 30,000. */
  timeoutMs?: number;
  /** Working directory. Default the current one. */
  cwd?: string;
}

/**
 * A key printed by a shell command. The command runs once, on first use; its
 * result (or failure) is cached. Output is trimmed. The command's output never
 * reaches an error message: only its exit status does.
 */
export function commandKey(command: string, options: CommandKeyOptions = {}): KeySource {
  let cached: Promise<string> | undefined;
  return {
    description: describeCommand(command),
    get() {
      cached ??= runKeyCommand(command, options);
      return cached;
    },
  };
}

/**
 * Names a key command by its program only: users sometimes write the key into
 * the command itself (`echo sk-...`), so its arguments never reach a message.
 */
function describeCommand(command: string): string {
  const program = command.trim().split(/\s+/)[0] ?? '';
  return `api_key_cmd (${program} ...)`;
}

function runKeyCommand(command: string, options: CommandKeyOptions): Promise<string> {
  const label = describeCommand(command);
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(
        new KeyError(
          `${label} could not start (${error.message}). Fix the command in the profile, or set the key in an environment variable (api_key_env).`,
        ),
      );
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const key = Buffer.concat(chunks).toString('utf8').trim();
      if (code !== 0) {
        const status = signal ? `was killed by ${signal}` : `exited with status ${code}`;
        reject(
          new KeyError(
            `${label} ${status}; no API key. Run the command yourself to see why, or set the key in an environment variable (api_key_env).`,
          ),
        );
      } else if (!key) {
        reject(
          new KeyError(`${label} printed nothing; no API key. It must print the key on stdout.`),
        );
      } else resolve(key);
    });
  });
}

/** Options for picking a role's key source. */
export interface KeySourceOptions {
  /** Environment read for `api_key_env` and handed to `api_key_cmd`. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** The key settings of one endpoint (a subset of RoleSettings). */
export interface KeySettings {
  baseUrl: string;
  apiKeyEnv?: string;
  apiKeyCmd?: string;
}

/** True for servers on this machine, which may run without a key. */
export function isLocalUrl(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host === '::1';
  } catch {
    return false;
  }
}

/**
 * Picks the key source for an endpoint: the environment variable when set,
 * else the command, else none. Throws KeyError when a remote endpoint names a
 * variable that is unset and has no command to fall back on.
 */
export function keySourceFor(settings: KeySettings, options: KeySourceOptions = {}): KeySource {
  const env = options.env ?? process.env;
  if (settings.apiKeyEnv) {
    const value = env[settings.apiKeyEnv]?.trim();
    if (value) return { description: `env ${settings.apiKeyEnv}`, get: async () => value };
  }
  if (settings.apiKeyCmd) return commandKey(settings.apiKeyCmd, { env });
  if (settings.apiKeyEnv && !isLocalUrl(settings.baseUrl)) {
    throw new KeyError(
      `No API key for ${settings.baseUrl}: the environment variable ${settings.apiKeyEnv} is not set. Export it (export ${settings.apiKeyEnv}=...), or set api_key_cmd in the profile.`,
    );
  }
  return literalKey(undefined);
}
