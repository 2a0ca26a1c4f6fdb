/**
 * Creating the trajectory folder. Node's own recursive mkdir spins forever on
 * some paths (under /proc it keeps getting ENOENT), so each level is made in
 * turn, and any failure becomes a ConfigError that names the folder and the fix.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../errors.js';

const REASONS: Record<string, string> = {
  ENOTDIR: 'part of the path is a file, not a folder',
  EEXIST: 'it exists and is not a folder',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  EROFS: 'the file system is read-only',
  ENOENT: 'a folder cannot be created there',
  ENOSPC: 'the disk is full',
};

/** The reason behind a file-system error, in words. */
export function fsReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? REASONS[code] : undefined;
  if (known !== undefined) return `${known} (${String(code)})`;
  return error instanceof Error ? error.message : String(error);
}

/** The ConfigError for a trajectory folder or file that cannot be written. */
export function logDirError(dir: string, error: unknown): ConfigError {
  return new ConfigError(
    `Cannot write trajectories to the folder "${dir}": ${fsReason(error)}. Pass --log-dir (logDir in code) a folder you can write to.`,
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

function makeDir(path: string): void {
  try {
    mkdirSync(path);
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
  mkdirSync(path);
}
