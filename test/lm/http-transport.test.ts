import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  errorDetail,
  exchange,
  fetchTransport,
  HttpStatusError,
  nodeTransport,
  readText,
  type Transport,
} from '../../src/lm/http-transport.js';

let server: Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((done) => open.close(done));
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Echoes method, headers and body back as JSON. */
function echo(): Parameters<typeof createServer>[1] {
  return (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (piece: string) => {
      body += piece;
    });
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-echo': 'yes' });
      res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
    });
  };
}

const transports: [string, Transport][] = [
  ['nodeTransport', nodeTransport],
  ['fetchTransport', fetchTransport(globalThis.fetch)],
];

for (const [name, transport] of transports) {
  describe(name, () => {
    it('sends method, headers and body; reads status, headers and the body', async () => {
      const url = await listen(echo());
      const response = await transport({
        method: 'POST',
        url: `${url}/v1/chat/completions`,
        headers: { 'content-type': 'application/json', 'x-test': 'on' },
        body: '{"q":"héllo"}',
        signal: new AbortController().signal,
      });
      expect(response.status).toBe(201);
      expect(response.header('x-echo')).toBe('yes');
      expect(response.header('x-missing')).toBeUndefined();
      const seen = JSON.parse(await readText(response));
      expect(seen).toMatchObject({ method: 'POST', body: '{"q":"héllo"}' });
      expect(seen.headers).toMatchObject({ 'x-test': 'on', 'content-length': '14' });
    });

    it('aborts a request that has no answer yet', async () => {
      const url = await listen(() => undefined);
      const controller = new AbortController();
      const pending = transport({
        method: 'GET',
        url,
        headers: {},
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(new Error('stop now')), 20);
      await expect(pending).rejects.toThrow();
      expect(controller.signal.aborted).toBe(true);
    });
  });
}

describe('nodeTransport specifics', () => {
  it('decompresses a gzip body the server sent unasked', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' });
      res.end(gzipSync('{"ok":true}'));
    });
    const response = await nodeTransport({
      method: 'GET',
      url,
      headers: {},
      signal: new AbortController().signal,
    });
    expect(await readText(response)).toBe('{"ok":true}');
  });

  it('hands the body over as it arrives and keeps multi-byte characters whole', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const bytes = Buffer.from('data: é€\n\n');
      res.write(bytes.subarray(0, 7)); // cuts "é" in half
      setTimeout(() => res.end(bytes.subarray(7)), 20);
    });
    const response = await nodeTransport({
      method: 'GET',
      url,
      headers: {},
      signal: new AbortController().signal,
    });
    const pieces: string[] = [];
    await response.read((piece) => pieces.push(piece));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('data: é€\n\n');
  });

  it('rejects the read when the connection drops mid-body', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"partial":', () => setTimeout(() => res.destroy(), 10));
    });
    const response = await nodeTransport({
      method: 'GET',
      url,
      headers: {},
      signal: new AbortController().signal,
    });
    await expect(readText(response)).rejects.toThrow();
  });

  it('aborts a body that is still streaming', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': keep-alive\n\n');
    });
    const controller = new AbortController();
    const response = await nodeTransport({
      method: 'GET',
      url,
      headers: {},
      signal: controller.signal,
    });
    const reading = readText(response);
    setTimeout(() => controller.abort(new Error('idle')), 20);
    await expect(reading).rejects.toThrow();
  });

  it('stops reading and reports the error when the reader throws', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
    });
    const response = await nodeTransport({
      method: 'GET',
      url,
      headers: {},
      signal: new AbortController().signal,
    });
    await expect(
      response.read(() => {
        throw new Error('malformed event');
      }),
    ).rejects.toThrow('malformed event');
  });
});

describe('exchange', () => {
  it('returns a 2xx response for the caller to read', async () => {
    const url = await listen(echo());
    const response = await exchange(nodeTransport, {
      method: 'GET',
      url,
      headers: {},
      signal: new AbortController().signal,
    });
    expect(response.status).toBe(201);
  });

  it("raises a non-2xx reply as HttpStatusError with the server's message and Retry-After", async () => {
    const url = await listen((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' });
      res.end('{"error":{"message":"slow down","type":"rate_limit"}}');
    });
    const error = await exchange(nodeTransport, {
      method: 'POST',
      url,
      headers: {},
      body: '{}',
      signal: new AbortController().signal,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect(error).toMatchObject({ status: 429, message: 'slow down' });
    expect((error as HttpStatusError).headers.get('retry-after')).toBe('3');
  });
});

describe('errorDetail', () => {
  it('finds the message in the shapes servers send', () => {
    expect(errorDetail('{"error":{"message":"bad model"}}', 404)).toBe('bad model');
    expect(
      errorDetail('{"type":"error","error":{"type":"invalid_request_error","message":"no"}}', 400),
    ).toBe('no');
    expect(errorDetail('{"error":"model not loaded"}', 503)).toBe('model not loaded');
    expect(errorDetail('{"message":"upstream down"}', 502)).toBe('upstream down');
    expect(errorDetail('  Bad Gateway\n', 502)).toBe('Bad Gateway');
    expect(errorDetail('', 500)).toBe('status 500 with no body');
  });
});
