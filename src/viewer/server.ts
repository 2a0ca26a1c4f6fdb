import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, resolve } from 'node:path';
import { TraceNotFoundError } from '../infer/errors.js';
import { INFERENCE_DIR } from '../infer/trace/writer.js';
import { ViewerError } from './errors.js';
import { inferenceForPage, listInferences } from './inference-store.js';
import { ASSET_FILES, ASSETS_DIR, servedPage } from './page.js';
import { RunStore } from './run-store.js';

export interface ViewerOptions {
  /** A directory of trajectories, or one trajectory file (its directory is served and the page opens on it). */
  path?: string;
  /** Port on 127.0.0.1; 0 picks a free one. */
  port?: number;
}

export interface ViewerServer {
  /** Address of the page (with `#/run/<file>` when a file was given). */
  url: string;
  /** The directory whose runs are listed. */
  dir: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:",
};
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** Starts the trajectory viewer on 127.0.0.1 and resolves once it listens. */
export async function startViewer(options: ViewerOptions = {}): Promise<ViewerServer> {
  const target = resolve(options.path ?? 'runs');
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(target);
  } catch {
    throw new ViewerError(
      `${target} does not exist. Pass a trajectory file or the directory holding them (reclamo writes them to runs/).`,
      404,
    );
  }
  // An inference trace opens in the log folder above its inferences/ folder.
  const inference = !info.isDirectory() && basename(dirname(target)) === INFERENCE_DIR;
  const dir = info.isDirectory() ? target : inference ? dirname(dirname(target)) : dirname(target);
  const store = new RunStore(dir);
  const server = createServer((req, res) => {
    handle(store, req, res).catch((error: unknown) => sendError(res, error));
  });
  const port = options.port ?? 0;
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ViewerError(`port ${port} is in use on 127.0.0.1; pass --port 0 to pick a free one`)
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolveListen());
  });
  const address = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${address.port}/`;
  const url = info.isDirectory()
    ? base
    : inference
      ? `${base}#/inference/${encodeURIComponent(basename(target, '.jsonl'))}`
      : `${base}#/run/${encodeURIComponent(basename(target))}`;
  return { url, dir, close: () => closeServer(server) };
}

async function handle(store: RunStore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Only this machine's own names: a page on another site cannot reach us through DNS rebinding.
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  if (host !== '127.0.0.1' && host !== 'localhost') {
    throw new ViewerError(`unexpected Host header ${JSON.stringify(req.headers.host)}`, 403);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw new ViewerError('only GET is served', 405);
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const path = url.pathname;
  if (path === '/' || path === '/index.html') {
    return send(res, 200, 'text/html; charset=utf-8', await servedPage());
  }
  if (path === '/favicon.ico') {
    res.writeHead(204, SECURITY_HEADERS).end();
    return;
  }
  if (path.startsWith('/assets/')) {
    const name = path.slice('/assets/'.length);
    if (!ASSET_FILES.includes(name)) throw new ViewerError(`no asset ${name}`, 404);
    const type = TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream';
    return send(res, 200, type, await readFile(`${ASSETS_DIR}${name}`));
  }
  if (path === '/api/runs') return sendJson(res, await store.list());
  if (path === '/api/inferences') return sendJson(res, await listInferences(store.dir));
  if (path === '/api/inference') {
    try {
      return sendJson(res, await inferenceForPage(store.dir, url.searchParams.get('id') ?? ''));
    } catch (error) {
      if (error instanceof TraceNotFoundError) throw new ViewerError(error.message, 404);
      throw error;
    }
  }
  const file = url.searchParams.get('file') ?? '';
  if (path === '/api/run') return sendJson(res, { file, header: await store.header(file) });
  if (path === '/api/details') {
    const from = integer(url.searchParams.get('from'), 'from');
    const to = integer(url.searchParams.get('to'), 'to');
    return sendJson(res, { file, from, details: await store.details(file, from, to) });
  }
  throw new ViewerError(`nothing at ${path}`, 404);
}

function integer(value: string | null, name: string): number {
  const parsed = Number(value);
  if (value === null || !Number.isInteger(parsed) || parsed < 0) {
    throw new ViewerError(`query parameter ${name} must be a whole number >= 0`);
  }
  return parsed;
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': type,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

function sendJson(res: ServerResponse, value: unknown): void {
  send(res, 200, 'application/json; charset=utf-8', JSON.stringify(value));
}

function sendError(res: ServerResponse, error: unknown): void {
  const status = error instanceof ViewerError ? error.statusCode : 500;
  const message = error instanceof Error ? error.message : String(error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  send(res, status, 'application/json; charset=utf-8', JSON.stringify({ error: message }));
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolveClose) => {
    server.close(() => resolveClose());
    server.closeAllConnections();
  });
}
