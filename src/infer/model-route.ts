/**
 * Which model a tree of frames talks to: a LanguageModel given by the caller,
 * a role of a profile (`'root'`, `'sub'`), or a model name served by the
 * profile's root endpoint. Chosen once by the outermost call; every frame
 * below it uses the same model.
 */
import { loadProfile } from '../config/load.js';
import type { ResolvedProfile } from '../config/types.js';
import { createEndpointPool, type EndpointPool, modelSettings } from '../lm/endpoints.js';
import type { LanguageModel } from '../lm/model.js';

/** A LanguageModel, a profile role, or a model name on the profile's endpoint. */
export type ModelChoice = LanguageModel | 'root' | 'sub' | (string & {});

/** Where a profile comes from when `model` is not a LanguageModel. */
export interface ModelRouteOptions {
  model?: ModelChoice;
  /** A profile name (loaded like `loadProfile`), or a loaded profile. Default: the default profile. */
  profile?: string | ResolvedProfile;
}

// One pool per profile object: every frame of a tree, and every tree over the
// same profile, shares its clients, keys and concurrency limits.
const pools = new WeakMap<ResolvedProfile, EndpointPool>();

function isLanguageModel(value: unknown): value is LanguageModel {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as LanguageModel).doGenerate === 'function'
  );
}

/** Resolves the model option; loads the profile only when it is needed. */
export async function resolveModel(options: ModelRouteOptions): Promise<LanguageModel> {
  if (isLanguageModel(options.model)) return options.model;
  const profile =
    typeof options.profile === 'object'
      ? options.profile
      : await loadProfile(options.profile === undefined ? {} : { profile: options.profile });
  let pool = pools.get(profile);
  if (!pool) {
    pool = createEndpointPool(profile);
    pools.set(profile, pool);
  }
  const choice = options.model ?? 'root';
  if (choice === 'root') return pool.root;
  if (choice === 'sub') return pool.sub;
  const first = pool.connections[0];
  if (!first) return pool.root;
  return first.endpoint.languageModel({ ...modelSettings(profile.root), model: choice });
}
