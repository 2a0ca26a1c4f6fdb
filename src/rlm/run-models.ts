/**
 * The models a run talks to: the profile it uses (given, loaded by name, or
 * built from `baseUrl` and `model`), and the profile's endpoints, or the
 * models handed in with the records a trajectory keeps of them.
 */
import { hasInlineModel, type InlineModel, inlineProfile } from '../config/inline-profile.js';
import type { ResolvedProfile } from '../config/types.js';
import { ConfigError } from '../errors.js';
import type { LanguageModel } from '../lm/model.js';
import type { EndpointRecord } from '../trace/events.js';
import { endpointsOfModels } from './profile-record.js';
import type { RunOptions } from './run-options.js';

/**
 * The profile a run uses: given, loaded by name (or the default), built from `baseUrl` and
 * `model`, or none with models. Inline model options replace a profile's own.
 */
export async function profileOf(options: RunOptions): Promise<ResolvedProfile | undefined> {
  const inline = inlineOf(options);
  const given = hasInlineModel(inline);
  const env = options.env ?? process.env;
  if (options.models) {
    if (given) {
      throw new ConfigError(
        'run() got models and also baseUrl, model, subModel, apiKeyEnv or contextTokens. Fix: pass one or the other.',
      );
    }
    if (typeof options.profile !== 'object') return undefined;
  }
  if (typeof options.profile === 'object') {
    return given ? inlineProfile(inline, options.profile, { env }) : options.profile;
  }
  // A server and model with no profile named: nothing to load.
  if (options.profile === undefined && inline.baseUrl !== undefined) {
    return inlineProfile(inline, undefined, { env });
  }
  const { loadProfile } = await import('../config/index.js');
  // Without a name, loadProfile falls back to RECLAMO_PROFILE, then the user file's default.
  const loaded = await loadProfile({
    ...(options.profile !== undefined ? { profile: options.profile } : {}),
    env,
  });
  return given ? inlineProfile(inline, loaded, { env }) : loaded;
}

function inlineOf(options: RunOptions): InlineModel {
  const inline: InlineModel = {};
  if (options.baseUrl !== undefined) inline.baseUrl = options.baseUrl;
  if (options.model !== undefined) inline.model = options.model;
  if (options.subModel !== undefined) inline.subModel = options.subModel;
  if (options.apiKeyEnv !== undefined) inline.apiKeyEnv = options.apiKeyEnv;
  if (options.contextTokens !== undefined) inline.contextTokens = options.contextTokens;
  return inline;
}

/** The root and sub models of a run, and the endpoint records its trajectories keep. */
export async function modelsOf(
  options: RunOptions,
  profile: ResolvedProfile | undefined,
): Promise<{ models: { root: LanguageModel; sub: LanguageModel }; endpoints: EndpointRecord[] }> {
  if (options.models) {
    return {
      models: options.models,
      endpoints: options.endpoints ?? endpointsOfModels(options.models),
    };
  }
  if (!profile) throw new ConfigError('run() needs a profile or models: { root, sub }.');
  // The model layer loads only when a run needs it.
  const { createEndpointPool } = await import('../lm/endpoints.js');
  const pool = createEndpointPool(profile, {
    env: options.env ?? process.env,
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
  });
  return { models: { root: pool.root, sub: pool.sub }, endpoints: pool.endpoints };
}
