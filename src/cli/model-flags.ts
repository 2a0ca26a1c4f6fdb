/**
 * `--base-url`, `--model`, `--sub-model`, `--api-key-env` and `--context-tokens`:
 * a model named on the command line, with or without `--profile`. Every command
 * that talks to a model registers them here and resolves them with
 * {@link profileFromFlags}, so they read and behave the same everywhere.
 */
import { type Command, InvalidArgumentError } from 'commander';
import {
  hasInlineModel,
  type InlineModel,
  type InlineModelNames,
  inlineProfile,
} from '../config/inline-profile.js';
import type { ResolvedProfile } from '../config/types.js';
import { parsePositiveIntegerOption } from './options.js';

/** The flags {@link addModelFlags} registers, as commander hands them over. */
export interface ModelFlags extends InlineModel {
  profile?: string;
}

/** Flag names for messages about inline model fields. */
export const MODEL_FLAG_NAMES: InlineModelNames = {
  baseUrl: '--base-url',
  model: '--model',
  subModel: '--sub-model',
  apiKeyEnv: '--api-key-env',
  contextTokens: '--context-tokens',
};

function httpUrl(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new InvalidArgumentError(
      'expected an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1',
    );
  }
  return value;
}

/** Options of {@link addModelFlags}. */
export interface AddModelFlagsOptions {
  /** Help text for `--profile`, when a command adds a choice of its own. */
  profileHelp?: string;
  /** Register `--context-tokens` (default true); a command that sends no long prompt leaves it out. */
  contextTokens?: boolean;
}

/** Registers `--profile` and the inline model flags on `command`. */
export function addModelFlags(command: Command, options: AddModelFlagsOptions = {}): Command {
  command
    .option(
      '--profile <name>',
      options.profileHelp ??
        'profile to use (default: $RECLAMO_PROFILE, else "default" in the user file)',
    )
    .option(
      '--base-url <url>',
      'OpenAI-compatible server to use, e.g. http://127.0.0.1:8000/v1 (with --model, no profile is needed)',
      httpUrl,
    )
    .option('--model <name>', "model for both roles, as the server names it (over the profile's)")
    .option('--sub-model <name>', 'model for sub-calls (llm_query), if not --model')
    .option(
      '--api-key-env <var>',
      'environment variable that holds the key (none needed on localhost)',
    );
  if (options.contextTokens === false) return command;
  return command.option(
    '--context-tokens <n>',
    "the model's window in tokens (default: the profile's, else 128000)",
    parsePositiveIntegerOption,
  );
}

/** The inline model fields of parsed flags. */
export function inlineFromFlags(flags: ModelFlags): InlineModel {
  const inline: InlineModel = {};
  if (flags.baseUrl !== undefined) inline.baseUrl = flags.baseUrl;
  if (flags.model !== undefined) inline.model = flags.model;
  if (flags.subModel !== undefined) inline.subModel = flags.subModel;
  if (flags.apiKeyEnv !== undefined) inline.apiKeyEnv = flags.apiKeyEnv;
  if (flags.contextTokens !== undefined) inline.contextTokens = flags.contextTokens;
  return inline;
}

/**
 * The profile the flags select: `--base-url` and `--model` alone build one, and
 * otherwise the named (or default) profile is loaded and the flags replace its
 * fields. Throws ConfigError naming flags (the CLI exits 2).
 */
export async function profileFromFlags(
  flags: ModelFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedProfile> {
  const inline = inlineFromFlags(flags);
  const options = { env, names: MODEL_FLAG_NAMES };
  if (flags.profile === undefined && inline.baseUrl !== undefined) {
    return inlineProfile(inline, undefined, options);
  }
  const { loadProfile } = await import('../config/index.js');
  const profile = await loadProfile({
    ...(flags.profile !== undefined ? { profile: flags.profile } : {}),
    env,
  });
  return hasInlineModel(inline) ? inlineProfile(inline, profile, options) : profile;
}
