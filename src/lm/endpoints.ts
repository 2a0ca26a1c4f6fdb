/**
 * The endpoints of a profile: one endpoint, one key source and one concurrency
 * semaphore per distinct base_url, shared by the roles on it. Each role gets
 * a LanguageModel with its own defaults baked in.
 */
import type { ResolvedProfile, RoleSettings } from '../config/types.js';
import { ConfigError } from '../errors.js';
import type { EndpointRecord } from '../trace/events.js';
import { AnthropicEndpoint } from './anthropic.js';
import type { HttpEndpoint, ModelSettings } from './endpoint-base.js';
import { keySourceFor, literalKey } from './keys.js';
import type { LanguageModel } from './model.js';
import { OpenAICompatibleEndpoint } from './openai-compatible.js';
import type { RetryOptions } from './retry.js';

export type RoleName = 'root' | 'sub';

export interface EndpointPoolOptions {
  /** Environment for `api_key_env` and `api_key_cmd`. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Fetch implementation for every client (tests, proxies). */
  fetch?: typeof globalThis.fetch;
  /** A key given in code, for every endpoint of the pool; wins over the profile's key sources. */
  apiKey?: string;
  /** Backoff settings of the retry policy. */
  retry?: RetryOptions;
  /** Stream replies (SSE). Default true. */
  stream?: boolean;
  /** Longest silence between stream events, in ms. Default: each role's request timeout. */
  idleTimeoutMs?: number;
  /** Injectable clock for tests. */
  _internal?: { now?: () => number };
}

/** One distinct base_url of the profile and what serves it. */
export interface PoolEndpoint {
  record: EndpointRecord;
  endpoint: HttpEndpoint;
  /** Settings of the first role on this URL (what `ping` sends). */
  settings: ModelSettings;
}

export interface EndpointPool {
  root: LanguageModel;
  sub: LanguageModel;
  /** What a trajectory records: URLs, protocols, roles, limits; never a key. */
  endpoints: EndpointRecord[];
  /** The endpoints themselves, in profile order (root's first). */
  connections: PoolEndpoint[];
  /** Fetches every key now (runs api_key_cmd); throws KeyError on the first failure. */
  resolveKeys(): Promise<void>;
}

/** Turns a role's profile settings into a LanguageModel's defaults. */
export function modelSettings(role: RoleSettings): ModelSettings {
  const settings: ModelSettings = { model: role.model, sampling: { ...role.sampling } };
  if (role.maxTokens !== undefined) settings.maxTokens = role.maxTokens;
  if (role.enableThinking !== undefined) settings.thinking = role.enableThinking;
  if (role.reasoningEffort !== undefined) settings.reasoningEffort = role.reasoningEffort;
  if (role.contextTokens !== undefined) settings.contextTokens = role.contextTokens;
  if (role.timeoutSeconds !== undefined) settings.timeoutMs = role.timeoutSeconds * 1000;
  return settings;
}

/**
 * Builds the endpoints of a profile. Throws KeyError when a remote endpoint's
 * key variable is unset (a key command runs later, on first use or in
 * `resolveKeys()`), ConfigError when roles on one URL disagree.
 */
export function createEndpointPool(
  profile: ResolvedProfile,
  options: EndpointPoolOptions = {},
): EndpointPool {
  const byUrl = new Map<string, PoolEndpoint & { role: RoleSettings }>();
  const models = {} as Record<RoleName, LanguageModel>;
  for (const name of ['root', 'sub'] as const) {
    const role = profile[name];
    const url = role.baseUrl.replace(/\/+$/, '');
    let entry = byUrl.get(url);
    if (entry) {
      checkAgreement(profile.name, entry.role, role);
      entry.record.roles.push(name);
    } else {
      const endpointOptions = {
        baseUrl: url,
        apiKey:
          options.apiKey !== undefined
            ? literalKey(options.apiKey)
            : keySourceFor(role, options.env ? { env: options.env } : {}),
        concurrency: role.concurrency,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.retry ? { retry: options.retry } : {}),
        ...(options.stream !== undefined ? { stream: options.stream } : {}),
        ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
        ...(options._internal ? { _internal: options._internal } : {}),
      };
      const endpoint =
        role.api === 'anthropic'
          ? new AnthropicEndpoint(endpointOptions)
          : new OpenAICompatibleEndpoint(endpointOptions);
      entry = {
        record: { baseUrl: url, api: role.api, roles: [name], concurrency: role.concurrency },
        endpoint: endpoint as HttpEndpoint,
        settings: modelSettings(role),
        role,
      };
      byUrl.set(url, entry);
    }
    models[name] = entry.endpoint.languageModel(modelSettings(role));
  }
  const connections = [...byUrl.values()].map(({ record, endpoint, settings }) => ({
    record,
    endpoint,
    settings,
  }));
  return {
    root: models.root,
    sub: models.sub,
    endpoints: connections.map((c) => ({ ...c.record, roles: [...c.record.roles] })),
    connections,
    async resolveKeys() {
      for (const connection of connections) await connection.endpoint.resolveKey();
    },
  };
}

function checkAgreement(profile: string, first: RoleSettings, second: RoleSettings): void {
  const fields: (keyof RoleSettings)[] = ['api', 'apiKeyEnv', 'apiKeyCmd', 'concurrency'];
  for (const field of fields) {
    if (first[field] !== second[field]) {
      throw new ConfigError(
        `Profile "${profile}": the root and sub roles share ${first.baseUrl} but disagree on ${field}. Fix: give both roles the same ${field}, or point them at different base_urls.`,
        undefined,
        field,
      );
    }
  }
}
