/**
 * Creating the trajectory folder. Node's own recursive mkdir spins forever on
 * some paths (under /proc it keeps getting ENOENT), so each level is made in
 * turn, and any failure becomes a ConfigError that names the folder and the fix.
 * Every level made here is private to its owner (0700): trajectories hold the
 * question and pieces of the context, and model code of a later run must not
 * read them. A folder that already exists keeps its mode.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { fsReason } from '../util/fs-reason.js';

function mkdirReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EEXIST') return 'it exists and is not a folder (EEXIST)';
  if (code === 'ENOENT') return 'a folder cannot be created there (ENOENT)';
  return fsReason(error);
}

/** The ConfigError for a trajectory folder or file that cannot be written. */
export function logDirError(dir: string, error: unknown): ConfigError {
  return new ConfigError(
    `Cannot write trajectories to the folder "${dir}": ${mkdirReason(error)}. Pass --log-dir (logDir in code) a folder you can write to.`,
    dir,
  );
}

/** Makes `dir` and any missing parents; throws a ConfigError when it cannot. */
export function ensureLogDir(dir: string): void {
  try {
    makeDir(resolve(dir));
  } catch (error) {
    throw logDirError(dir, error);
  }
}

const PRIVATE = 0o700;

function makeDir(path: string): void {
  try {
    mkdirSync(path, PRIVATE);
    return;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST') {
      if (statSync(path).isDirectory()) return;
      throw error;
    }
    const parent = dirname(path);
    if (code !== 'ENOENT' || parent === path) throw error;
  }
  makeDir(dirname(path));
  mkdirSync(path, PRIVATE);
}
