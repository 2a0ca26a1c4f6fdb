/**
 * `ping`: checks every endpoint of a profile. For each distinct base_url it
 * lists the server's models, sends one short request with thinking off and
 * one with thinking on, and reports latency, usage and whether reasoning came
 * back. Key problems throw KeyError before any request is sent.
 */
import type { ResolvedProfile } from '../config/types.js';
import { createEndpointPool, type PoolEndpoint } from './endpoints.js';
import type { FinishReason, GenerateRequest, Usage } from './model.js';
import type { RetryOptions } from './retry.js';

export interface PingOptions {
  /** Environment for keys. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Fetch implementation for every client. */
  fetch?: typeof globalThis.fetch;
  /** Time allowed for silence from a server, per request, in ms. Default 60,000. */
  timeoutMs?: number;
  /** Retry settings; ping retries once by default so a dead server fails fast. */
  retry?: RetryOptions;
  /** Output cap of the plain request. Default 64. */
  plainMaxTokens?: number;
  /** Output cap of the thinking request. Default 2048. */
  thinkingMaxTokens?: number;
  /** Cancels every check. */
  signal?: AbortSignal;
  /** Injectable clock for tests. */
  _internal?: { now?: () => number };
}

/** One request's outcome. */
export interface PingRequestReport {
  ok: boolean;
  latencyMs: number;
  usage?: Usage;
  finishReason?: FinishReason;
  /** Whether the reply carried reasoning (a field, a thinking block or `<think>` tags). */
  reasoning: boolean;
  /** The start of the reply text. */
  reply?: string;
  error?: string;
}

/** One endpoint's outcome. */
export interface PingEndpointReport {
  baseUrl: string;
  api: 'openai' | 'anthropic' | 'scripted';
  roles: string[];
  /** Model the requests were sent to (the first role's on this URL). */
  model: string;
  models: { ok: boolean; ids: string[]; latencyMs: number; error?: string };
  plain: PingRequestReport;
  thinking: PingRequestReport;
  /** Both requests answered. */
  ok: boolean;
}

export interface PingReport {
  profile: string;
  source: string;
  endpoints: PingEndpointReport[];
  /** Every endpoint answered. */
  ok: boolean;
}

const PLAIN_PROMPT = 'Reply with the single word: pong';
const THINKING_PROMPT = 'What is 17 + 25? Think it through, then answer with the number only.';

/** Pings every endpoint of the profile. Throws KeyError or ConfigError; endpoint failures are reported. */
export async function ping(
  profile: ResolvedProfile,
  options: PingOptions = {},
): Promise<PingReport> {
  const pool = createEndpointPool(profile, {
    retry: options.retry ?? { maxRetries: 1, initialDelayMs: 250 },
    ...(options.env ? { env: options.env } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options._internal ? { _internal: options._internal } : {}),
  });
  await pool.resolveKeys();
  const endpoints = await Promise.all(pool.connections.map((c) => pingEndpoint(c, options)));
  return {
    profile: profile.name,
    source: profile.source,
    endpoints,
    ok: endpoints.every((e) => e.ok),
  };
}

async function pingEndpoint(
  connection: PoolEndpoint,
  options: PingOptions,
): Promise<PingEndpointReport> {
  const now = options._internal?.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const { record, endpoint, settings } = connection;
  const started = now();
  let models: PingEndpointReport['models'];
  try {
    const ids = await endpoint.listModels({
      timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    models = { ok: true, ids, latencyMs: now() - started };
  } catch (error) {
    models = { ok: false, ids: [], latencyMs: now() - started, error: messageOf(error) };
  }
  const model = endpoint.languageModel(settings);
  const ask = async (request: GenerateRequest): Promise<PingRequestReport> => {
    const begin = now();
    try {
      const reply = await model.doGenerate({
        ...request,
        timeoutMs,
        ...(options.signal ? { abortSignal: options.signal } : {}),
      });
      const text = reply.content.trim().replace(/\s+/g, ' ');
      return {
        ok: true,
        latencyMs: reply.latencyMs,
        usage: reply.usage,
        finishReason: reply.finishReason,
        reasoning: reply.reasoning.trim() !== '',
        reply: text.length > 60 ? `${text.slice(0, 60)}...` : text,
      };
    } catch (error) {
      return { ok: false, latencyMs: now() - begin, reasoning: false, error: messageOf(error) };
    }
  };
  const plain = await ask({
    messages: [{ role: 'user', content: PLAIN_PROMPT }],
    thinking: false,
    maxTokens: options.plainMaxTokens ?? 64,
  });
  const thinking = await ask({
    messages: [{ role: 'user', content: THINKING_PROMPT }],
    thinking: true,
    maxTokens: options.thinkingMaxTokens ?? 2048,
  });
  return {
    baseUrl: record.baseUrl,
    api: record.api,
    roles: [...record.roles],
    model: settings.model,
    models,
    plain,
    thinking,
    ok: plain.ok && thinking.ok,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
