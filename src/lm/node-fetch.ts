/**
 * The default transport under the SDKs: a `fetch` built on node:http(s) with
 * keep-alive agents. Node's built-in fetch costs several times more CPU per
 * request (bench/endpoint.ts measures both); with hundreds of sub-calls in
 * flight that is the client's main overhead. Anything unusual (a body that is
 * not a string, a scheme other than http/https) goes to the built-in fetch.
 */
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

const agents = {
  http: new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
  https: new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
};

function urlOf(input: Parameters<typeof fetch>[0]): URL | undefined {
  if (typeof input === 'string') return URL.canParse(input) ? new URL(input) : undefined;
  if (input instanceof URL) return input;
  return undefined;
}

/** A fetch over node:http with keep-alive; falls back to the global fetch for what it does not cover. */
export const nodeFetch: typeof globalThis.fetch = (input, init) => {
  const url = urlOf(input);
  const body = init?.body;
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    (body !== undefined && body !== null && typeof body !== 'string')
  ) {
    return globalThis.fetch(input, init);
  }
  const secure = url.protocol === 'https:';
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => {
    headers[name] = value;
  });
  if (typeof body === 'string') headers['content-length'] = String(Buffer.byteLength(body));
  const signal = init?.signal ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      {
        method: init?.method ?? 'GET',
        headers,
        agent: secure ? agents.https : agents.http,
        ...(signal ? { signal } : {}),
      },
      (response) => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) {
            responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
        }
        const status = response.statusCode ?? 0;
        // We never ask for compression, but a server may send it anyway.
        const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
        const decoder =
          encoding === 'gzip' || encoding === 'x-gzip'
            ? zlib.createGunzip()
            : encoding === 'deflate'
              ? zlib.createInflate()
              : encoding === 'br'
                ? zlib.createBrotliDecompress()
                : undefined;
        if (decoder) {
          responseHeaders.delete('content-encoding');
          responseHeaders.delete('content-length');
        }
        const source: Readable = decoder ? response.pipe(decoder) : response;
        if (decoder) response.on('error', (error) => decoder.destroy(error));
        // A Response with a body must not have a null-body status (204, 304).
        const nullBody = status === 204 || status === 304 || init?.method === 'HEAD';
        if (nullBody) response.resume();
        resolve(
          new Response(nullBody ? null : (Readable.toWeb(source) as ReadableStream<Uint8Array>), {
            status,
            statusText: response.statusMessage ?? '',
            headers: responseHeaders,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(typeof body === 'string' ? body : undefined);
  });
};
