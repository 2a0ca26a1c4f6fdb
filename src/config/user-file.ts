/** Finding, reading, parsing and validating the user's `profiles.toml`. */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { ConfigError } from '../errors.js';
import { issuesToError } from './format-issues.js';
import { profileFileSchema, type RawProfile } from './schema.js';

/** Where the user file is looked for, and whether the caller named it (then it must exist). */
export interface UserFileLocation {
  path: string;
  /** `option`, `RECLAMO_PROFILES`, or `default` (a missing default file is fine). */
  from: 'option' | 'RECLAMO_PROFILES' | 'default';
}

/** A parsed, validated user file. */
export interface UserFile {
  path: string;
  profiles: Record<string, RawProfile>;
}

/** The option, else `RECLAMO_PROFILES`, else `$XDG_CONFIG_HOME` or `~/.config`, then `reclamo/profiles.toml`. */
export function locateUserFile(env: NodeJS.ProcessEnv, file?: string): UserFileLocation {
  if (file) return { path: resolve(file), from: 'option' };
  const named = env.RECLAMO_PROFILES;
  if (named) return { path: resolve(named), from: 'RECLAMO_PROFILES' };
  const configHome = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return { path: join(configHome, 'reclamo', 'profiles.toml'), from: 'default' };
}

/** Reads the user file; undefined when the default file does not exist. */
export async function readUserFile(location: UserFileLocation): Promise<UserFile | undefined> {
  const text = await readText(location);
  if (text === undefined) return undefined;
  return parseUserFile(text, location.path);
}

/** Parses and validates profile-file text; `path` names the file in errors and anchors relative paths. */
export function parseUserFile(text: string, path: string): UserFile {
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    if (error instanceof TomlError) {
      // The first line only: smol-toml appends the offending source line, which may hold a secret.
      const reason = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
      throw new ConfigError(
        `${path}:${error.line}:${error.column}: TOML syntax error: ${reason}. Fix line ${error.line} of the file.`,
        path,
      );
    }
    throw error;
  }
  const result = profileFileSchema.safeParse(data);
  if (!result.success) throw issuesToError(result.error.issues, data, path);
  const profiles = result.data.profiles ?? {};
  for (const profile of Object.values(profiles)) {
    if (profile.system_prompt_file) {
      profile.system_prompt_file = resolve(dirname(path), profile.system_prompt_file);
    }
  }
  return { path, profiles };
}

async function readText(location: UserFileLocation): Promise<string | undefined> {
  try {
    return await readFile(location.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && location.from === 'default') return undefined;
    const named =
      location.from === 'default'
        ? ''
        : ` (named by ${location.from === 'option' ? 'the file option' : 'RECLAMO_PROFILES'})`;
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})`;
    throw new ConfigError(
      `Profile file ${location.path}${named} ${why}. Fix: create it, or point RECLAMO_PROFILES at an existing file.`,
      location.path,
    );
  }
}
