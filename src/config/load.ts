/** Loading profiles: built-ins, then the user file over them, then environment overrides. */
import { ConfigError } from '../errors.js';
import { builtInProfiles } from './built-ins.js';
import { mergeProfiles } from './merge.js';
import { resolveProfile } from './resolve.js';
import { closest } from './suggest.js';
import type { ResolvedProfile } from './types.js';
import { locateUserFile, readUserFile, type UserFile } from './user-file.js';

/** Options of {@link loadProfile} and {@link listProfiles}. */
export interface LoadProfileOptions {
  /** Profile name (`--profile`); else `RECLAMO_PROFILE`, else `default` from the user file. */
  profile?: string;
  /** Environment to read `RECLAMO_*` from. Defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** User profile file; defaults to `RECLAMO_PROFILES`, else `~/.config/reclamo/profiles.toml`. */
  file?: string;
}

/** One available profile and where it comes from. */
export interface ProfileListEntry {
  name: string;
  origin: 'built-in' | 'user file' | 'built-in, overridden by user file';
}

/** What {@link listProfiles} returns. */
export interface ProfileList {
  /** The user file consulted, and whether it exists. */
  file: { path: string; exists: boolean };
  profiles: ProfileListEntry[];
  /** The profile a command would use with no `--profile`, when there is one. */
  selected?: string;
}

/** Loads, merges, validates and resolves the selected profile. Throws ConfigError on any problem. */
export async function loadProfile(options: LoadProfileOptions = {}): Promise<ResolvedProfile> {
  const env = options.env ?? process.env;
  const location = locateUserFile(env, options.file);
  const userFile = await readUserFile(location);
  const name = selectProfile(options.profile, env, userFile, location.path);
  const builtIn = Object.hasOwn(builtInProfiles, name) ? builtInProfiles[name] : undefined;
  const user =
    userFile && Object.hasOwn(userFile.profiles, name) ? userFile.profiles[name] : undefined;
  if (!builtIn && !user) {
    const fromEnv = !options.profile && env.RECLAMO_PROFILE === name;
    throw unknownProfile(name, userFile, location.path, fromEnv);
  }
  const raw = mergeProfiles(builtIn, user ?? {});
  const source = [builtIn ? 'built-in' : undefined, user ? userFile?.path : undefined]
    .filter(Boolean)
    .join(' + ');
  const where = user ? location.path : 'built-in profile';
  return resolveProfile({ name, raw, source, env, where });
}

/** Every available profile (built-ins and the user file's), without resolving them. */
export async function listProfiles(
  options: Omit<LoadProfileOptions, 'profile'> = {},
): Promise<ProfileList> {
  const env = options.env ?? process.env;
  const location = locateUserFile(env, options.file);
  const userFile = await readUserFile(location);
  const names = allNames(userFile);
  const profiles = names.map((name): ProfileListEntry => {
    const builtIn = Object.hasOwn(builtInProfiles, name);
    const user = userFile !== undefined && Object.hasOwn(userFile.profiles, name);
    const origin =
      builtIn && user ? 'built-in, overridden by user file' : builtIn ? 'built-in' : 'user file';
    return { name, origin };
  });
  const list: ProfileList = {
    file: { path: location.path, exists: userFile !== undefined },
    profiles,
  };
  const selected =
    env.RECLAMO_PROFILE ||
    (userFile && Object.hasOwn(userFile.profiles, 'default') ? 'default' : undefined);
  if (selected) list.selected = selected;
  return list;
}

function allNames(userFile: UserFile | undefined): string[] {
  const user = Object.keys(userFile?.profiles ?? {}).filter(
    (name) => !Object.hasOwn(builtInProfiles, name),
  );
  return [...Object.keys(builtInProfiles), ...user.sort()];
}

function selectProfile(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv,
  userFile: UserFile | undefined,
  path: string,
): string {
  if (explicit) return explicit;
  if (env.RECLAMO_PROFILE) return env.RECLAMO_PROFILE;
  if (userFile && Object.hasOwn(userFile.profiles, 'default')) return 'default';
  throw new ConfigError(noProfileMessage(path), undefined, 'profile');
}

function unknownProfile(
  name: string,
  userFile: UserFile | undefined,
  path: string,
  fromEnv: boolean,
): ConfigError {
  const names = allNames(userFile);
  const guess = closest(name, names);
  const available = `${guess ? `Did you mean "${guess}"? ` : ''}Available: ${names.join(', ')}`;
  const where = userFile ? `the built-ins or ${path}` : `the built-ins (no user file at ${path})`;
  return new ConfigError(
    `Unknown profile "${name}"${fromEnv ? ' (from RECLAMO_PROFILE)' : ''}: it is not among ${where}. ${available}. Fix: pick one of those, or add [profiles.${name}] to ${path}.`,
    userFile?.path,
    'profile',
  );
}

function noProfileMessage(path: string): string {
  return [
    'No profile selected, so reclamo does not know which model server to use. Choose one:',
    `  - a built-in profile: --profile ollama (or ${Object.keys(builtInProfiles)
      .filter((n) => n !== 'ollama')
      .join(', ')})`,
    '  - the RECLAMO_PROFILE environment variable: RECLAMO_PROFILE=vllm',
    '  - a server and model of your own: --base-url http://127.0.0.1:8000/v1 --model NAME',
    `  - a profile named "default" in ${path}, for example:`,
    '      [profiles.default]',
    '      base_url = "http://127.0.0.1:8080/v1"',
    '      model = "qwen3-8b"',
    '      context_tokens = 32768',
    'To try reclamo without any model server, run the offline demo: npx reclamo demo',
  ].join('\n');
}
