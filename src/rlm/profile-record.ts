/**
 * The profile as a trajectory records it: names and settings, never a key
 * and never where a key comes from.
 */
import type { ResolvedProfile, RoleSettings } from '../config/types.js';
import type { LanguageModel } from '../lm/model.js';
import type { EndpointRecord } from '../trace/events.js';

export interface ProfileRecord {
  name: string;
  settings: Record<string, unknown>;
}

function role(r: RoleSettings): Record<string, unknown> {
  const { apiKeyEnv: _env, apiKeyCmd: _cmd, ...rest } = r;
  return rest;
}

/** A profile with every key source (api_key_env, api_key_cmd) removed. */
export function profileRecord(profile: ResolvedProfile): ProfileRecord {
  return {
    name: profile.name,
    settings: {
      source: profile.source,
      root: role(profile.root),
      sub: role(profile.sub),
      run: { ...profile.run },
    },
  };
}

/** Endpoint records for models handed in directly (no profile). */
export function endpointsOfModels(models: {
  root: LanguageModel;
  sub: LanguageModel;
}): EndpointRecord[] {
  const api = (url: string): EndpointRecord['api'] =>
    url.startsWith('scripted') ? 'scripted' : 'openai';
  if (models.root.endpoint === models.sub.endpoint) {
    return [
      {
        baseUrl: models.root.endpoint,
        api: api(models.root.endpoint),
        roles: ['root', 'sub'],
        concurrency: 0,
      },
    ];
  }
  return [
    {
      baseUrl: models.root.endpoint,
      api: api(models.root.endpoint),
      roles: ['root'],
      concurrency: 0,
    },
    { baseUrl: models.sub.endpoint, api: api(models.sub.endpoint), roles: ['sub'], concurrency: 0 },
  ];
}
