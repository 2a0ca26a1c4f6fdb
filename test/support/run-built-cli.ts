/**
 * Shared set-up for the end-to-end CLI tests: a profile file that points the
 * `mock` profile at the mock server, and the built CLI (dist/cli/main.js)
 * started as a child process with a small, explicit environment, its stdout,
 * stderr and exit code collected.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IS_ROOT, NOBODY, publicCliMain } from './other-user.js';

/** The built CLI's entry point (`npm run build` writes it). */
export const CLI_MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** Options for {@link writeMockProfile}. */
export interface MockProfileOptions {
  /** The mock server's base URL (`server.url`). */
  baseUrl: string;
  /** The file name inside the folder; a fresh random name when absent. */
  file?: string;
  /** The variable that holds the API key (`api_key_env`); no such line when absent. */
  apiKeyEnv?: string;
  /** More `[profiles.mock]` fields: a number is written bare, a string quoted. */
  settings?: Record<string, number | string>;
  /** Raw TOML lines appended to `[profiles.mock]` after the settings. */
  extra?: string;
}

/**
 * Writes a profile file with one profile, `mock`: the OpenAI-compatible API at
 * `baseUrl`, root model `root-model` and sub model `sub-model`. Returns its path.
 */
export function writeMockProfile(dir: string, options: MockProfileOptions): string {
  const path = join(dir, options.file ?? `profile-${Math.random().toString(36).slice(2)}.toml`);
  const lines = ['[profiles.mock]', `base_url = "${options.baseUrl}"`, 'api = "openai"'];
  if (options.apiKeyEnv !== undefined) lines.push(`api_key_env = "${options.apiKeyEnv}"`);
  for (const [key, value] of Object.entries(options.settings ?? {})) {
    lines.push(`${key} = ${typeof value === 'number' ? value : JSON.stringify(value)}`);
  }
  if (options.extra !== undefined) lines.push(options.extra);
  lines.push('[profiles.mock.root]', 'model = "root-model"');
  lines.push('[profiles.mock.sub]', 'model = "sub-model"');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** How to start the built CLI. Nothing of this process's environment is passed on but PATH. */
export interface CliOptions {
  /** HOME for the child: a test folder, so no profile file of the user's is read. */
  home: string;
  /** RECLAMO_PROFILES: the profile file to read; unset when absent. */
  profiles?: string;
  /** More variables (an API key, or a PATH that replaces this process's). */
  env?: Record<string, string>;
  /** Written to the child's stdin, which is then closed; stdin is ignored when absent. */
  stdin?: string;
  /** Kill the child with SIGKILL after this many milliseconds, so a hang fails fast. */
  killAfterMs?: number;
  /**
   * Run the CLI as a user whom file permissions bind: as root, as nobody (uid 65534),
   * from a copy of the CLI nobody can reach (see other-user.ts); as anyone else, as
   * themselves. Files the CLI is given must then be reachable by that user too.
   */
  asOtherUser?: boolean;
}

/** What a finished CLI process left. */
export interface CliResult {
  /** The exit code (null when a signal ended it). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from the start to the close. */
  ms: number;
}

/** Starts `node dist/cli/main.js ...args`; stdout and stderr are pipes the caller reads. */
export function spawnCli(args: string[], options: CliOptions): ChildProcess {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: options.home };
  if (options.profiles !== undefined) env.RECLAMO_PROFILES = options.profiles;
  const nobody = options.asOtherUser === true && IS_ROOT;
  const child = spawn(process.execPath, [nobody ? publicCliMain() : CLI_MAIN, ...args], {
    env: { ...env, ...options.env },
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    ...(nobody ? NOBODY : {}),
  });
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  return child;
}

/** Runs the built CLI to its end and collects its exit code, stdout and stderr. */
export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('error', reject);
    const timer =
      options.killAfterMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGKILL'), options.killAfterMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
