import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFetch } from '../../src/lm/node-fetch.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done));
  server = undefined;
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('nodeFetch', () => {
  it('sends method, headers and body, and reads status and headers back', async () => {
    const url = await listen((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        res.writeHead(201, { 'x-echo': req.headers['x-test'] ?? '' });
        res.end(`${req.method} ${body}`);
      });
    });
    const res = await nodeFetch(`${url}/p`, {
      method: 'POST',
      headers: { 'x-test': 'yes' },
      body: 'hello',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-echo')).toBe('yes');
    expect(await res.text()).toBe('POST hello');
  });

  it('decompresses a gzip body and handles a 204', async () => {
    const url = await listen((req, res) => {
      if (req.url === '/empty') {
        res.writeHead(204);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' });
      res.end(gzipSync('{"ok":true}'));
    });
    expect(await (await nodeFetch(`${url}/zip`)).json()).toEqual({ ok: true });
    const empty = await nodeFetch(`${url}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it('aborts a request in flight', async () => {
    const url = await listen(() => undefined);
    const controller = new AbortController();
    const pending = nodeFetch(url, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toThrow(/abort/i);
  });
});
