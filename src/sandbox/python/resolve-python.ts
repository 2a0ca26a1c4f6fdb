import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { InterpreterError } from '../../errors.js';

/** What the sandbox knows about an interpreter after asking it once. */
export interface PythonInfo {
  /** Absolute path the interpreter reports as `sys.executable` (past any version-manager shim). */
  executable: string;
  /** `major.minor.micro`. */
  version: string;
  major: number;
  minor: number;
  /** Directories the standard library is imported from. */
  stdlib: string[];
}

/** The oldest Python the worker supports. */
export const MIN_PYTHON: readonly [number, number] = [3, 9];

const PROBE = [
  'import json, sys, sysconfig',
  'p = sysconfig.get_paths()',
  'print(json.dumps({"executable": sys.executable, "version": list(sys.version_info[:3]),',
  ' "stdlib": [p["stdlib"], p["platstdlib"]]}))',
].join('\n');

const cache = new Map<string, Promise<PythonInfo>>();

/**
 * Asks an interpreter (a name looked up on PATH, or a path) for its real executable and
 * version, once per process: a version manager's shim can add hundreds of milliseconds
 * to every start, so the worker is always launched through the absolute path.
 */
export function probePython(command: string, pathEnv?: string): Promise<PythonInfo> {
  const key = `${command}\0${pathEnv ?? ''}`;
  let found = cache.get(key);
  if (!found) {
    found = runProbe(command, pathEnv);
    cache.set(key, found);
    found.catch(() => cache.delete(key));
  }
  return found;
}

/** How to point reclamo at a working interpreter; ends every InterpreterError. */
export const PYTHON_FIX = `Fix: install Python ${MIN_PYTHON.join('.')} or later as python3 on PATH, or set \`python\` to a working interpreter: \`python = "/usr/bin/python3"\` in the profile, --python on the command line, or the \`python\` option of run() / createPythonSandbox().`;

/** `python3` (looked up on PATH) or the path as given. */
function named(command: string): string {
  return command.includes('/') ? `\`${command}\`` : `\`${command}\` (looked up on PATH)`;
}

function runProbe(command: string, pathEnv?: string): Promise<PythonInfo> {
  const env = { PATH: pathEnv ?? process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };
  return new Promise((resolve, reject) => {
    execFile(command, ['-I', '-c', PROBE], { env, timeout: 30_000 }, (error, stdout, stderr) => {
      const refuse = (why: string) => reject(new InterpreterError(`${why} ${PYTHON_FIX}`, command));
      if (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          refuse(
            command.includes('/')
              ? `Python was not found: \`${command}\` does not exist.`
              : `Python was not found: \`${command}\` is not on PATH.`,
          );
        } else {
          const detail = `${error.message.split('\n')[0]}${stderr ? `: ${stderr.trim().slice(0, 300)}` : ''}`;
          refuse(`Python ${named(command)} could not be started (${detail}).`);
        }
        return;
      }
      const info = parseProbe(stdout);
      if (!info) {
        refuse(
          `${named(command)} did not answer like Python ${MIN_PYTHON.join('.')}+ (got ${JSON.stringify(stdout.slice(0, 200))}).`,
        );
        return;
      }
      if (
        info.major < MIN_PYTHON[0] ||
        (info.major === MIN_PYTHON[0] && info.minor < MIN_PYTHON[1])
      ) {
        refuse(
          `Python ${info.version} at ${info.executable} (from ${named(command)}) is too old: reclamo needs Python ${MIN_PYTHON.join('.')} or later.`,
        );
        return;
      }
      resolve(info);
    });
  });
}

function parseProbe(stdout: string): PythonInfo | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(stdout.trim().split('\n').pop() ?? '');
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const v = r.version;
  if (typeof r.executable !== 'string' || !r.executable.startsWith('/')) return undefined;
  if (!Array.isArray(v) || v.length !== 3 || !v.every((n) => Number.isInteger(n))) return undefined;
  const stdlib = Array.isArray(r.stdlib) ? r.stdlib.filter((s) => typeof s === 'string') : [];
  const [major, minor, micro] = v as [number, number, number];
  return { executable: r.executable, version: `${major}.${minor}.${micro}`, major, minor, stdlib };
}

/**
 * True when a user with no relation to the files (the sandbox's unprivileged uid) can
 * import from every standard-library directory: each ancestor must be searchable by
 * "other", the directory itself readable and searchable.
 */
export async function readableByOthers(dirs: readonly string[]): Promise<boolean> {
  for (const dir of dirs) {
    let current = dir;
    try {
      const self = await stat(current);
      if ((self.mode & 0o005) !== 0o005) return false;
      while (dirname(current) !== current) {
        current = dirname(current);
        if (((await stat(current)).mode & 0o001) === 0) return false;
      }
    } catch {
      return false;
    }
  }
  return true;
}

/** Python interpreters on PATH (skipping version-manager shims) and in the usual places. */
export function fallbackCandidates(pathEnv: string | undefined): string[] {
  const dirs = (pathEnv ?? '').split(delimiter).filter((d) => d && !/shims/.test(d));
  const out = dirs.map((d) => join(d, 'python3'));
  for (const p of ['/usr/bin/python3', '/usr/local/bin/python3', '/bin/python3']) {
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/** The interpreter for a sandbox, and any note on why it is not the first one found. */
export interface ResolvedPython {
  info: PythonInfo;
  notes: string[];
}

/**
 * Resolves the interpreter once. When the worker will drop to an unprivileged uid, the
 * interpreter's standard library must be readable by that uid; if `python3` on PATH is
 * not (e.g. under root's home), another Python 3.9+ that is gets used, and a note says so.
 */
export async function resolvePython(options: {
  python?: string | undefined;
  pathEnv?: string | undefined;
  needsOtherAccess: boolean;
}): Promise<ResolvedPython> {
  const first = await probePython(options.python ?? 'python3', options.pathEnv);
  if (!options.needsOtherAccess || (await readableByOthers(first.stdlib))) {
    return { info: first, notes: [] };
  }
  const fix = `its standard library (${first.stdlib[0]}) is not readable by other users, and the worker drops to an unprivileged uid before running model code`;
  if (options.python) {
    throw new InterpreterError(
      `Python at ${first.executable} (from \`${options.python}\`) cannot be used by the sandbox: ${fix}. Fix: make its directories world-readable (chmod o+rx), or set \`python\` to an interpreter outside a private home directory.`,
      options.python,
    );
  }
  for (const candidate of fallbackCandidates(options.pathEnv)) {
    if (candidate === first.executable) continue;
    try {
      const info = await probePython(candidate, options.pathEnv);
      if (await readableByOthers(info.stdlib)) {
        return {
          info,
          notes: [
            `python3 on PATH (${first.executable}) is not usable: ${fix}; using ${info.executable}`,
          ],
        };
      }
    } catch {
      // try the next candidate
    }
  }
  throw new InterpreterError(
    `No usable Python: python3 on PATH (${first.executable}) was found but ${fix}, and no other Python ${MIN_PYTHON.join('.')}+ is installed where that uid can read it. Fix: install one system-wide (e.g. /usr/bin/python3), make this one world-readable, or set \`python\` (profile field, --python) to one that is.`,
    'python3',
  );
}
