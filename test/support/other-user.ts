/**
 * Running the built CLI as another user, for tests about files the user may not
 * read. Root reads everything, so as root such a test runs the CLI as nobody
 * (uid 65534). A checkout in a private (0700) folder is out of nobody's reach,
 * so nobody runs a copy of the built CLI (dist/, package.json, node_modules)
 * hard-linked into a folder under the system's temporary directory, and the
 * test's files live in such a folder too. Both are removed when the test
 * process exits.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The user a root test process runs the CLI as. */
export const NOBODY = { uid: 65534, gid: 65534 };

export const IS_ROOT = process.getuid?.() === 0;

const ROOT = resolve(import.meta.dirname, '../..');
const made: string[] = [];
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder under the temporary directory that every user may enter and list. */
export function publicTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `reclamo-${prefix}-`));
  chmodSync(dir, 0o755);
  made.push(dir);
  return dir;
}

let copy: string | undefined;

/** The built CLI's entry point in a copy nobody can reach (made on first use). */
export function publicCliMain(): string {
  if (copy) return copy;
  const dir = publicTempDir('cli');
  for (const part of ['package.json', 'dist', 'node_modules']) {
    // Hard links cost nothing on one filesystem; across filesystems, copy.
    try {
      execFileSync('cp', ['-al', join(ROOT, part), dir], { stdio: 'ignore' });
    } catch {
      execFileSync('cp', ['-r', join(ROOT, part), dir], { stdio: 'ignore' });
    }
  }
  copy = join(dir, 'dist', 'cli', 'main.js');
  return copy;
}

/**
 * Why the CLI cannot run as another user here, or undefined when it can: as root,
 * nobody must be able to read the copy (a temporary directory nobody can enter
 * would stop it).
 */
export function otherUserSkipReason(): string | undefined {
  if (!IS_ROOT) return undefined;
  const main = publicCliMain();
  const probe = spawnSync('/usr/bin/test', ['-r', main], { ...NOBODY, stdio: 'ignore' });
  return probe.status === 0
    ? undefined
    : `uid ${NOBODY.uid} cannot read ${main} (is ${tmpdir()} private?)`;
}
