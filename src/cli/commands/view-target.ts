/**
 * What `reclamo view` is pointed at, checked before anything is served or
 * written: a missing or unreadable path is a usage error (exit 2), named.
 */
import { access, constants, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigError } from '../../errors.js';
import { fsReason } from '../../util/fs-reason.js';

const PASS =
  'Pass a trajectory .jsonl file or the directory holding them (reclamo run writes them to runs/).';

/** Throws ConfigError naming `path` unless it is a readable file (or, when `allowDirectory`, a listable directory). */
export async function checkViewTarget(path: string, allowDirectory: boolean): Promise<void> {
  const info = await stat(resolve(path)).catch(() => null);
  if (!info) throw new ConfigError(`"${path}" does not exist. ${PASS}`, path);
  if (info.isDirectory() && !allowDirectory) {
    throw new ConfigError(
      `"${path}" is a directory; --export writes the page for one run. Pass its trajectory file (runs/<stamp>-<id>.jsonl).`,
      path,
    );
  }
  if (!info.isDirectory() && !info.isFile()) {
    throw new ConfigError(`"${path}" is not a regular file or a directory. ${PASS}`, path);
  }
  const mode = info.isDirectory() ? constants.R_OK | constants.X_OK : constants.R_OK;
  const denied = await access(resolve(path), mode).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (denied !== undefined) {
    throw new ConfigError(
      `"${path}" cannot be read: ${fsReason(denied)}. Fix its permissions (chmod u+r${info.isDirectory() ? 'x' : ''}) or pass another path.`,
      path,
    );
  }
}
