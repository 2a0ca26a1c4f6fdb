/**
 * The files of a frozen task folder and their SHA-256s. Every regular file
 * counts (task modules and the helpers they import), except the manifest
 * itself and hidden files, so a change anywhere in a task is seen.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { sha256Hex } from '../../util/sha256.js';

/** The manifest's file name inside the task folder. */
export const MANIFEST_FILE = 'manifest.json';

/** `{ relative path: sha256 }` of every file in the folder, sorted by path. */
export async function hashTaskDir(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of (await listFiles(dir)).sort()) {
    const name = relative(dir, path).split(sep).join('/');
    if (name === MANIFEST_FILE) continue;
    out[name] = sha256Hex(await readFile(path));
  }
  return out;
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** What changed between two `{ path: sha256 }` maps, as `changed a.mjs`, `added b.mjs`, `removed c.mjs`. */
export function diffHashes(before: Record<string, string>, now: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [name, hash] of Object.entries(now)) {
    if (!(name in before)) out.push(`added ${name}`);
    else if (before[name] !== hash) out.push(`changed ${name}`);
  }
  for (const name of Object.keys(before)) if (!(name in now)) out.push(`removed ${name}`);
  return out;
}
