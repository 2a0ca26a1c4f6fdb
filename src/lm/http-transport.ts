/**
 * The HTTP layer under both adapters: one POST or GET, the status, and the
 * body handed over as text while it arrives. The default transport is
 * node:http(s) with keep-alive agents and no web streams in between, which
 * keeps the client's CPU per request at about half of what Node's built-in
 * fetch alone costs (bench/endpoint.ts measures both). A user's own `fetch`
 * (proxies, tests) goes through `fetchTransport` instead.
 */
import http from 'node:http';
import https from 'node:https';
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { isRecord, safeParseJson } from '../util/safe-json.js';

/** What one exchange needs. The body, when there is one, is JSON text. */
export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** A response whose head has arrived. Read the body once, with `read` or `text`. */
export interface HttpResponse {
  readonly status: number;
  /** A response header (lower-case name), or undefined. */
  header(name: string): string | undefined;
  /** Calls `onText` with each piece of the body as it arrives; resolves when it ends. */
  read(onText: (text: string) => void): Promise<void>;
}

export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

/** A non-2xx reply. `status` and `headers` are what the retry policy reads. */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  constructor(
    readonly status: number,
    readonly headers: Headers,
    detail: string,
  ) {
    super(detail);
  }
}

const agents = {
  http: new http.Agent({ keepAlive: true, scheduling: 'lifo', noDelay: true }),
  https: new https.Agent({ keepAlive: true, scheduling: 'lifo', noDelay: true }),
};

/**
 * node:http(s) with keep-alive: the default. The abort signal is wired by hand:
 * http.request's own `signal` option costs about 25 µs per request.
 */
export const nodeTransport: Transport = (request) =>
  new Promise((resolve, reject) => {
    const { signal } = request;
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const secure = request.url.startsWith('https:');
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
    const outgoing = (secure ? https : http).request(
      request.url,
      { method: request.method, headers, agent: secure ? agents.https : agents.http },
      (incoming) => {
        resolve(new NodeResponse(incoming));
      },
    );
    const onAbort = () => {
      reject(signal.reason);
      outgoing.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    outgoing.once('close', () => signal.removeEventListener('abort', onAbort));
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });

class NodeResponse implements HttpResponse {
  readonly status: number;
  private readonly source: Readable;

  constructor(private readonly incoming: http.IncomingMessage) {
    this.status = incoming.statusCode ?? 0;
    // We never ask for compression, but a server may send it anyway.
    const decoder = decoderFor(incoming.headers['content-encoding']);
    if (decoder) {
      incoming.on('error', (error) => decoder.destroy(error));
      this.source = incoming.pipe(decoder);
    } else {
      this.source = incoming;
    }
    this.source.setEncoding('utf8');
  }

  header(name: string): string | undefined {
    const value = this.incoming.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  read(onText: (text: string) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      let ended = false;
      this.source.on('data', (text: string) => {
        if (ended) return;
        try {
          onText(text);
        } catch (error) {
          // The reply is unusable; drop the connection rather than read the rest.
          ended = true;
          reject(error);
          this.incoming.destroy();
        }
      });
      this.source.on('end', () => {
        ended = true;
        resolve();
      });
      this.source.on('error', (error) => {
        ended = true;
        reject(error);
      });
      this.source.on('close', () => {
        if (!ended) reject(new Error('the connection closed before the reply ended'));
      });
    });
  }
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/** A transport over any `fetch` (a proxy-aware one, or a test double). */
export function fetchTransport(fetchImpl: typeof globalThis.fetch): Transport {
  return async (request) => {
    const response = await fetchImpl(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: request.signal,
    });
    return {
      status: response.status,
      header: (name) => response.headers.get(name) ?? undefined,
      read: async (onText) => {
        if (!response.body) return;
        const decoder = new TextDecoder();
        for await (const chunk of response.body) {
          const text = decoder.decode(chunk, { stream: true });
          if (text) onText(text);
        }
        const rest = decoder.decode();
        if (rest) onText(rest);
      },
    };
  };
}

/** The whole body as text, calling `onText` (e.g. the idle clock) on every piece. */
export async function readText(response: HttpResponse, onText?: () => void): Promise<string> {
  let text = '';
  await response.read((piece) => {
    text += piece;
    onText?.();
  });
  return text;
}

/**
 * Sends a request and returns the response when its status is 2xx; anything
 * else is read and raised as an HttpStatusError carrying the server's message.
 */
export async function exchange(transport: Transport, request: HttpRequest): Promise<HttpResponse> {
  const response = await transport(request);
  if (response.status >= 200 && response.status < 300) return response;
  const body = await readText(response).catch(() => '');
  const headers = new Headers();
  for (const name of ['retry-after', 'retry-after-ms', 'content-type']) {
    const value = response.header(name);
    if (value !== undefined) headers.set(name, value);
  }
  throw new HttpStatusError(response.status, headers, errorDetail(body, response.status));
}

/** The message in an error body: `{error: {message}}` (both APIs), `{error: "..."}`, `{message}`, or the text. */
export function errorDetail(body: string, status: number): string {
  const parsed = safeParseJson<unknown>(body);
  if (parsed.ok && isRecord(parsed.value)) {
    const { error, message } = parsed.value;
    if (isRecord(error) && typeof error.message === 'string') return error.message;
    if (typeof error === 'string') return error;
    if (typeof message === 'string') return message;
  }
  const text = body.trim();
  return text === '' ? `status ${status} with no body` : text;
}
