import { SandboxError } from '../../errors.js';

/** Names no worker may receive: anything like a credential or the harness's own settings. */
const FORBIDDEN = [
  /KEY/i,
  /TOKEN/i,
  /SECRET/i,
  /PASSW/i,
  /CREDENTIAL/i,
  /AUTH/i,
  /COOKIE/i,
  /SESSION/i,
];
const FORBIDDEN_PREFIXES = ['RECLAMO_', 'OPENAI_', 'ANTHROPIC_', 'AWS_', 'AZURE_', 'GOOGLE_'];

/** True when an environment variable name may reach the worker. */
export function isSafeEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  if (FORBIDDEN_PREFIXES.some((p) => upper.startsWith(p))) return false;
  return !FORBIDDEN.some((re) => re.test(name));
}

/** Where the worker may write: a throwaway HOME and TMPDIR. */
export interface WorkerDirs {
  home: string;
  tmp: string;
}

/**
 * The worker's whole environment: a minimal PATH, a UTF-8 locale, a throwaway HOME and
 * TMPDIR, and the caller's `extra` variables (refused when a name looks like a secret).
 * Nothing is inherited from the host's environment.
 */
export function workerEnv(dirs: WorkerDirs, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  for (const name of Object.keys(extra)) {
    if (!isSafeEnvName(name)) {
      throw new SandboxError(
        `Environment variable ${name} may not be passed to the sandbox: its name looks like a credential or a harness setting. Remove it from the sandbox's \`env\` option.`,
      );
    }
  }
  return {
    ...extra,
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    TMP: dirs.tmp,
    TEMP: dirs.tmp,
    // Fewer malloc arenas keep threads from reserving address space under RLIMIT_AS.
    MALLOC_ARENA_MAX: '2',
  };
}
