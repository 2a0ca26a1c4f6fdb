/**
 * What the two HTTP adapters share: the transport, the endpoint's key source
 * and concurrency semaphore, the retry loop, the request scope (caller's
 * signal, deadline) and the per-attempt idle timer. Subclasses only build the
 * request and read the reply.
 */
import { EndpointError, ReclamoError } from '../errors.js';
import { isRecord, safeParseJson } from '../util/safe-json.js';
import {
  exchange,
  fetchTransport,
  nodeTransport,
  readText,
  type Transport,
} from './http-transport.js';
import { type KeySource, literalKey } from './keys.js';
import type {
  Completion,
  GenerateRequest,
  LanguageModel,
  Message,
  ReasoningEffort,
  Sampling,
  ToolSpec,
} from './model.js';
import { isRetryableStatus, parseRetryAfter, type RetryOptions, withRetry } from './retry.js';
import { clip, scrubSecrets } from './scrub.js';
import { Semaphore } from './semaphore.js';
import { AttemptTimer, RequestScope, StallError } from './timeouts.js';

/** Default time allowed for silence from the server (first event, or between events). */
export const DEFAULT_TIMEOUT_MS = 600_000;

/** How to reach one endpoint. One instance serves every role on that base_url. */
export interface EndpointOptions {
  /** Base URL, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** The key, a KeySource (env var, command), or nothing for a keyless server. */
  apiKey?: string | KeySource;
  /** A `fetch` to send requests through (proxies, tests). Default: keep-alive node:http (see http-transport.ts). */
  fetch?: typeof globalThis.fetch;
  /** Requests in flight at once, or a semaphore shared with other code. Default 8. */
  concurrency?: number | Semaphore;
  /** Backoff settings of the retry policy. */
  retry?: RetryOptions;
  /** Stream replies (SSE). Default true. */
  stream?: boolean;
  /**
   * Longest silence allowed between stream events once the reply started, in
   * ms. Default: the request's timeout. Before the first event the request's
   * timeout applies (a long prompt may take a while to read).
   */
  idleTimeoutMs?: number;
  /** Injectable clock for tests. */
  _internal?: { now?: () => number };
}

/** One role's defaults baked into a LanguageModel; request fields override them. */
export interface ModelSettings {
  /** Model name sent to the server. */
  model: string;
  maxTokens?: number;
  thinking?: boolean;
  reasoningEffort?: ReasoningEffort;
  sampling?: Sampling;
  /** The model's window in tokens (informational, for the loop's budget). */
  contextTokens?: number;
  /** Time allowed for silence from the server, in ms. Default 600,000. */
  timeoutMs?: number;
}

/** A request with the role's defaults applied. */
export interface ResolvedRequest {
  model: string;
  messages: Message[];
  maxTokens?: number;
  thinking?: boolean;
  reasoningEffort?: ReasoningEffort;
  sampling: Sampling;
  tools: ToolSpec[];
  toolChoice?: 'auto' | 'none';
}

/** What an attempt gets from the driver. */
export interface AttemptIO {
  signal: AbortSignal;
  /** Call on every event from the server (restarts the idle clock). */
  touch: () => void;
  stream: boolean;
  /** The protocol's headers with the key, for this endpoint. */
  headers: Record<string, string>;
}

/** The server's reply broke off or did not follow the protocol; the attempt is retried. */
export class ReplyError extends Error {
  override readonly name = 'ReplyError';
  constructor(
    message: string,
    /** False when another attempt would get the same answer (a page that is not the API). */
    readonly isRetryable = true,
  ) {
    super(message);
  }
}

/** A reply as the adapter read it, before the driver adds endpoint and latency. */
export type RawCompletion = Omit<Completion, 'endpoint' | 'latencyMs'>;

export function resolveRequest(settings: ModelSettings, request: GenerateRequest): ResolvedRequest {
  const resolved: ResolvedRequest = {
    model: settings.model,
    messages: request.messages,
    sampling: { ...settings.sampling, ...request.sampling },
    tools: request.tools ?? [],
  };
  const maxTokens = request.maxTokens ?? settings.maxTokens;
  if (maxTokens !== undefined) resolved.maxTokens = maxTokens;
  const thinking = request.thinking ?? settings.thinking;
  if (thinking !== undefined) resolved.thinking = thinking;
  const effort = request.reasoningEffort ?? settings.reasoningEffort;
  if (effort !== undefined) resolved.reasoningEffort = effort;
  if (request.toolChoice !== undefined) resolved.toolChoice = request.toolChoice;
  return resolved;
}

export abstract class HttpEndpoint {
  abstract readonly api: 'openai' | 'anthropic';
  readonly baseUrl: string;
  readonly limiter: Semaphore;
  protected readonly keys: KeySource;
  protected readonly transport: Transport;
  private readonly retry: RetryOptions | undefined;
  private readonly stream: boolean;
  private readonly idleTimeoutMs: number | undefined;
  private readonly now: () => number;
  private headersPromise: Promise<Record<string, string>> | undefined;
  private readonly secrets: string[] = [];

  constructor(options: EndpointOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const apiKey = options.apiKey;
    this.keys = typeof apiKey === 'object' ? apiKey : literalKey(apiKey);
    if (typeof apiKey === 'string') this.secrets.push(apiKey);
    this.transport = options.fetch ? fetchTransport(options.fetch) : nodeTransport;
    const concurrency = options.concurrency ?? 8;
    this.limiter = typeof concurrency === 'number' ? new Semaphore(concurrency) : concurrency;
    this.retry = options.retry;
    this.stream = options.stream ?? true;
    this.idleTimeoutMs = options.idleTimeoutMs;
    this.now = options._internal?.now ?? Date.now;
  }

  /** The protocol's headers for every request, the key included when there is one. */
  protected abstract headersFor(apiKey: string | undefined): Record<string, string>;
  /** Where the server lists its models. */
  protected abstract modelsUrl(): string;
  /** The request body, built once per request (before waiting for a slot, off the critical path). */
  protected abstract encode(request: ResolvedRequest, stream: boolean): string;
  /** One attempt: send `body`, read the reply. */
  protected abstract send(
    body: string,
    request: ResolvedRequest,
    io: AttemptIO,
  ): Promise<RawCompletion>;

  /** A LanguageModel for one role on this endpoint. */
  languageModel(settings: ModelSettings): LanguageModel {
    return new EndpointModel(this, settings);
  }

  /** Fetches the key (running api_key_cmd if that is the source). Throws KeyError. */
  async resolveKey(): Promise<void> {
    await this.headers();
  }

  /** The model ids the server lists (`GET /models`); one attempt, no retries. */
  async listModels(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<string[]> {
    const headers = await this.headers();
    const scope = new RequestScope(options.signal, undefined, this.now);
    const timeoutMs = options.timeoutMs ?? 30_000;
    const timer = new AttemptTimer(scope.signal, timeoutMs, timeoutMs);
    try {
      const response = await exchange(this.transport, {
        method: 'GET',
        url: this.modelsUrl(),
        headers,
        signal: timer.signal,
      });
      return modelIdsOf(await readText(response, timer.touch));
    } catch (error) {
      throw this.classify(error, timer.signal);
    } finally {
      timer.dispose();
      scope.dispose();
    }
  }

  /** Runs one generation with retries, the deadline, the idle timeout and the semaphore. */
  async generate(settings: ModelSettings, request: GenerateRequest): Promise<Completion> {
    const start = this.now();
    const resolved = resolveRequest(settings, request);
    const body = this.encode(resolved, this.stream);
    const timeoutMs = request.timeoutMs ?? settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const idleMs = this.idleTimeoutMs ?? timeoutMs;
    const scope = new RequestScope(request.abortSignal, request.deadline, this.now);
    try {
      scope.signal.throwIfAborted();
      const headers = await this.headers();
      const retryContext = {
        signal: scope.signal,
        now: this.now,
        ...(this.retry ? { retry: this.retry } : {}),
        ...(request.deadline !== undefined ? { deadline: request.deadline } : {}),
      };
      let handedOver = false;
      const raw = await withRetry(async () => {
        const release = await this.limiter.acquire(scope.signal);
        const timer = new AttemptTimer(scope.signal, timeoutMs, idleMs);
        const onReceive = request.onReceive;
        const touch = onReceive
          ? () => {
              timer.touch();
              onReceive();
            }
          : timer.touch;
        try {
          return await this.send(body, resolved, {
            signal: timer.signal,
            touch,
            stream: this.stream,
            headers,
          });
        } catch (error) {
          throw this.classify(error, timer.signal);
        } finally {
          timer.dispose();
          if (this.limiter.waiting > 0) handedOver = true;
          release();
        }
      }, retryContext);
      // The slot went to a waiting request, whose bytes leave only on the next tick:
      // let them go before the caller's bookkeeping on this reply runs.
      if (handedOver) await new Promise((resolve) => setImmediate(resolve));
      return { ...raw, endpoint: this.baseUrl, latencyMs: this.now() - start };
    } finally {
      scope.dispose();
    }
  }

  /** Maps whatever an attempt threw to EndpointError, DeadlineError or the caller's abort reason. */
  protected classify(error: unknown, signal: AbortSignal): unknown {
    if (signal.aborted) {
      const reason: unknown = signal.reason;
      if (reason instanceof StallError) {
        return new EndpointError(
          `${this.baseUrl}: ${reason.message}`,
          this.baseUrl,
          undefined,
          true,
        );
      }
      return reason;
    }
    if (error instanceof ReclamoError) return error;
    const scrub = (text: string) => clip(scrubSecrets(text, this.secrets));
    const status = statusOf(error);
    const message = error instanceof Error ? error.message : String(error);
    if (status !== undefined) {
      const headers = headersOf(error);
      const retryAfterMs = parseRetryAfter(
        headers?.get('retry-after'),
        headers?.get('retry-after-ms'),
      );
      return new EndpointError(
        `${this.baseUrl}: HTTP ${status}: ${scrub(message)}${statusHint(status)}`,
        this.baseUrl,
        status,
        isRetryableStatus(status),
        retryAfterMs === undefined ? {} : { retryAfterMs },
      );
    }
    const detail = connectionDetail(error);
    const what =
      error instanceof SyntaxError || error instanceof ReplyError
        ? 'bad reply'
        : 'connection failed';
    return new EndpointError(
      `${this.baseUrl}: ${what}: ${scrub(detail ? `${message} (${detail})` : message)}${connectionHint(`${message} ${detail ?? ''}`)}`,
      this.baseUrl,
      undefined,
      !(error instanceof ReplyError) || error.isRetryable,
    );
  }

  /** The endpoint's headers, made once the key is known (api_key_cmd runs once). */
  private headers(): Promise<Record<string, string>> {
    this.headersPromise ??= this.keys.get().then((key) => {
      if (key) this.secrets.push(key);
      return this.headersFor(key);
    });
    return this.headersPromise;
  }
}

/** A role bound to an endpoint: the LanguageModel the loop sees. */
class EndpointModel implements LanguageModel {
  readonly modelId: string;
  readonly endpoint: string;
  readonly contextTokens?: number;
  readonly maxTokens?: number;

  constructor(
    private readonly owner: HttpEndpoint,
    private readonly settings: ModelSettings,
  ) {
    this.modelId = settings.model;
    this.endpoint = owner.baseUrl;
    if (settings.contextTokens !== undefined) this.contextTokens = settings.contextTokens;
    if (settings.maxTokens !== undefined) this.maxTokens = settings.maxTokens;
  }

  doGenerate(request: GenerateRequest): Promise<Completion> {
    return this.owner.generate(this.settings, request);
  }
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

function headersOf(error: unknown): Headers | undefined {
  const headers = (error as { headers?: unknown }).headers;
  return headers instanceof Headers ? headers : undefined;
}

/** What to do about the statuses a wrong key, base_url or model name cause. */
function statusHint(status: number): string {
  if (status === 401 || status === 403) {
    return '. The server refused the key: check api_key_env / api_key_cmd in the profile (reclamo profiles show NAME shows where the key comes from)';
  }
  if (status === 404) {
    return '. Check base_url (OpenAI-compatible servers usually want it to end in /v1) and the model name in the profile';
  }
  return '';
}

/** What to do about the connection failures a wrong base_url or a stopped server cause. */
function connectionHint(text: string): string {
  if (/ECONNREFUSED/.test(text)) {
    return '. Nothing is listening there: start the model server, or fix base_url in the profile (reclamo profiles show NAME shows it)';
  }
  if (/ENOTFOUND|EAI_AGAIN/.test(text)) {
    return '. The host name does not resolve: check base_url in the profile';
  }
  return '';
}

function connectionDetail(error: unknown): string | undefined {
  let cause = (error as { cause?: unknown } | null)?.cause;
  for (let depth = 0; depth < 3 && cause instanceof Error; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `{ data: [{ id }] }`, the model list both APIs send. */
function modelIdsOf(text: string): string[] {
  const parsed = safeParseJson<unknown>(text);
  const data = parsed.ok && isRecord(parsed.value) ? parsed.value.data : undefined;
  if (!Array.isArray(data)) throw new ReplyError('the model list is not { data: [...] }');
  return data.flatMap((entry) =>
    isRecord(entry) && typeof entry.id === 'string' ? [entry.id] : [],
  );
}
