/**
 * A model named in options rather than in a profile file: `--base-url URL
 * --model NAME` on the command line, `run({ baseUrl, model })` in code. Given
 * alone, these build a whole profile; given with a profile, they replace its
 * server, models or key source, as RECLAMO_BASE_URL / RECLAMO_MODEL do.
 */
import { ConfigError } from '../errors.js';
import { checkSharedEndpoints } from './check-endpoints.js';
import { ENV_API_KEY } from './env-overrides.js';
import type { ResolvedProfile, RoleSettings } from './types.js';

/** Where a model is and what it is called, without a profile file. */
export interface InlineModel {
  /** The server's URL, e.g. `http://127.0.0.1:8000/v1`. */
  baseUrl?: string;
  /** The model both roles use (the root's, when `subModel` is set). */
  model?: string;
  /** The model for sub-calls (`llm_query`); default `model`. */
  subModel?: string;
  /** Name of the environment variable holding the key. */
  apiKeyEnv?: string;
  /** The model's window in tokens; default: the profile's, else the loop's 128,000. */
  contextTokens?: number;
}

/** The option names an {@link InlineModel}'s fields go by in messages (`--base-url` for the CLI). */
export type InlineModelNames = Record<keyof InlineModel, string>;

const OPTION_NAMES: InlineModelNames = {
  baseUrl: 'baseUrl',
  model: 'model',
  subModel: 'subModel',
  apiKeyEnv: 'apiKeyEnv',
  contextTokens: 'contextTokens',
};

/** True when any field of the inline model is set. */
export function hasInlineModel(inline: InlineModel): boolean {
  return Object.values(inline).some((v) => v !== undefined);
}

/**
 * The profile a run uses, given an inline model: built from it alone when
 * `base` is undefined (then `baseUrl` and `model` are required), else `base`
 * with the given fields replaced. A server on this machine needs no key; the
 * key comes from `apiKeyEnv`, else RECLAMO_API_KEY when set, else none.
 * Throws ConfigError naming the option at fault (`names` maps them to flags).
 */
export function inlineProfile(
  inline: InlineModel,
  base?: ResolvedProfile,
  options: { env?: NodeJS.ProcessEnv; names?: InlineModelNames } = {},
): ResolvedProfile {
  const names = options.names ?? OPTION_NAMES;
  check(inline, names);
  const env = options.env ?? process.env;
  if (!base) {
    if (inline.baseUrl === undefined || inline.model === undefined) {
      const missing = inline.baseUrl === undefined ? names.baseUrl : names.model;
      throw new ConfigError(
        `${names.baseUrl} and ${names.model} name a model without a profile, and ${missing} is missing. Fix: give both (${names.model} is the name the server lists under GET /v1/models), or choose a profile.`,
        undefined,
        missing,
      );
    }
    const role: RoleSettings = {
      baseUrl: inline.baseUrl,
      api: 'openai',
      concurrency: 1,
      model: inline.model,
      sampling: {},
    };
    if (inline.apiKeyEnv === undefined && env[ENV_API_KEY]) role.apiKeyEnv = ENV_API_KEY;
    base = { name: 'inline', source: 'inline', root: role, sub: { ...role }, run: {} };
  }
  const root = { ...base.root, sampling: { ...base.root.sampling } };
  const sub = { ...base.sub, sampling: { ...base.sub.sampling } };
  for (const role of [root, sub]) {
    if (inline.baseUrl !== undefined) role.baseUrl = inline.baseUrl;
    if (inline.apiKeyEnv !== undefined) {
      role.apiKeyEnv = inline.apiKeyEnv;
      delete role.apiKeyCmd;
    }
    if (inline.contextTokens !== undefined) role.contextTokens = inline.contextTokens;
  }
  if (inline.model !== undefined) root.model = inline.model;
  const subModel = inline.subModel ?? inline.model;
  if (subModel !== undefined) sub.model = subModel;
  const given = (Object.keys(OPTION_NAMES) as (keyof InlineModel)[])
    .filter((k) => inline[k] !== undefined)
    .map((k) => names[k]);
  const source =
    base.source === 'inline' ? given.join(', ') : `${base.source} + ${given.join(', ')}`;
  checkSharedEndpoints(
    base.name,
    { root, sub },
    `profile "${base.name}" with ${given.join(', ')}`,
    [],
  );
  return { name: base.name, source, root, sub, run: { ...base.run } };
}

function check(inline: InlineModel, names: InlineModelNames): void {
  if (inline.baseUrl !== undefined) {
    const url = URL.canParse(inline.baseUrl) ? new URL(inline.baseUrl) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new ConfigError(
        `${names.baseUrl} must be an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1.`,
        undefined,
        names.baseUrl,
      );
    }
    if (url.username || url.password) {
      throw new ConfigError(
        `${names.baseUrl} carries a user name or password. Fix: remove them from the URL and pass the key through ${names.apiKeyEnv}.`,
        undefined,
        names.baseUrl,
      );
    }
  }
  for (const key of ['model', 'subModel'] as const) {
    if (inline[key] !== undefined && inline[key].trim() === '') {
      throw new ConfigError(
        `${names[key]} is empty. Fix: give the model's name.`,
        undefined,
        names[key],
      );
    }
  }
  if (inline.apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(inline.apiKeyEnv)) {
    // A value that is not a variable name may be a pasted key: never repeat it.
    throw new ConfigError(
      `${names.apiKeyEnv} must be the NAME of an environment variable (letters, digits, _), not the key itself.`,
      undefined,
      names.apiKeyEnv,
    );
  }
  const window = inline.contextTokens;
  if (window !== undefined && (!Number.isInteger(window) || window < 256)) {
    throw new ConfigError(
      `${names.contextTokens} must be a whole number of tokens, at least 256.`,
      undefined,
      names.contextTokens,
    );
  }
}
