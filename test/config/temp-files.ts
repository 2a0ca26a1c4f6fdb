import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve('.artifacts', 'config-tests');

/** A fresh directory under .artifacts/ to act as HOME (so no real user file leaks in). */
export function tempHome(): string {
  mkdirSync(ROOT, { recursive: true });
  return mkdtempSync(join(ROOT, 'home-'));
}

/** Writes a profile file into a fresh directory and returns its path. */
export function writeProfiles(text: string, name = 'profiles.toml'): string {
  const path = join(tempHome(), name);
  writeFileSync(path, text);
  return path;
}

/** An environment with only HOME set, pointing at an empty temp directory. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { HOME: tempHome(), ...extra };
}

export const SEED_STYLE = resolve('test/fixtures/config/seed-style.toml');
