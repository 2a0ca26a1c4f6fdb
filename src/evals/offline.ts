/**
 * The offline backend: the mock OpenAI-compatible server, started in this
 * process, answering with the scripted policies, and a profile whose root and
 * sub roles point at it. Used by `reclamo demo` and by `--profile scripted`.
 */
import type { ResolvedProfile, RoleSettings } from '../config/types.js';
import { startMockServer } from '../testing/mock-server.js';
import {
  createScriptedPolicy,
  SCRIPTED_ROOT_MODEL,
  SCRIPTED_SUB_MODEL,
  type ScriptedPolicyOptions,
} from './policies/scripted.js';

/** The name that selects the offline backend wherever a profile is asked for. */
export const SCRIPTED_PROFILE = 'scripted';

/** The scripted profile's window: small enough that large plain prompts do not fit. */
export const SCRIPTED_CONTEXT_TOKENS = 32_768;

export interface ScriptedBackendOptions extends ScriptedPolicyOptions {
  /** Latency added to every reply, in ms (default 0). */
  latencyMs?: number;
  /** Requests in flight at once per role (default 4). */
  concurrency?: number;
}

export interface ScriptedBackend {
  profile: ResolvedProfile;
  /** Generation requests the server answered so far. */
  requests(): number;
  close(): Promise<void>;
}

export async function startScriptedBackend(
  options: ScriptedBackendOptions = {},
): Promise<ScriptedBackend> {
  const server = await startMockServer({
    policy: createScriptedPolicy(options),
    models: [SCRIPTED_ROOT_MODEL, SCRIPTED_SUB_MODEL],
    record: false,
    ...(options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {}),
  });
  const role = (model: string, maxTokens: number): RoleSettings => ({
    baseUrl: server.url,
    api: 'openai',
    concurrency: options.concurrency ?? 4,
    model,
    maxTokens,
    enableThinking: false,
    sampling: {},
    contextTokens: SCRIPTED_CONTEXT_TOKENS,
    timeoutSeconds: 60,
  });
  const profile: ResolvedProfile = {
    name: SCRIPTED_PROFILE,
    source: 'built-in (offline: scripted policies on an in-process mock server)',
    root: role(SCRIPTED_ROOT_MODEL, 4096),
    sub: role(SCRIPTED_SUB_MODEL, 4096),
    run: {},
  };
  return {
    profile,
    requests: () => server.counters.requests,
    close: () => server.close(),
  };
}
