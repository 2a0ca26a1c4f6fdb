/**
 * A small HTTP server on 127.0.0.1 that serves one file's bytes the way a
 * dataset host does: Range requests answered with 206, and faults on demand
 * (cut the connection after N bytes, ignore Range, answer a status).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FileServerFaults {
  /** For the first request only: destroy the socket after sending this many body bytes. */
  cutFirstAfter?: number;
  /** Answer every request with the whole file (200), as a server without Range support does. */
  ignoreRange?: boolean;
  /** Answer every request with this status and no body. */
  status?: number;
}

export interface FileServer {
  url: string;
  /** The Range header of each request, in order ('' when none). */
  ranges: string[];
  close(): Promise<void>;
}

export async function startFileServer(
  body: Buffer,
  faults: FileServerFaults = {},
  path = '/file.json',
): Promise<FileServer> {
  const ranges: string[] = [];
  let requests = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    requests++;
    ranges.push(req.headers.range ?? '');
    if (req.url !== path) {
      res.writeHead(404).end();
      return;
    }
    if (faults.status !== undefined) {
      res.writeHead(faults.status).end();
      return;
    }
    let start = 0;
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (m && !faults.ignoreRange) {
      start = Number(m[1]);
      if (start >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      res.writeHead(206, {
        'content-length': body.length - start,
        'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
      });
    } else {
      res.writeHead(200, { 'content-length': body.length });
    }
    const rest = body.subarray(start);
    if (requests === 1 && faults.cutFirstAfter !== undefined) {
      res.write(rest.subarray(0, faults.cutFirstAfter), () => res.socket?.destroy());
      return;
    }
    res.end(rest);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    ranges,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
