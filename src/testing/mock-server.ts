/**
 * A mock model server on 127.0.0.1 speaking the OpenAI-compatible and the
 * Anthropic Messages protocols over real HTTP. Answers come from a policy (a
 * function of the request); faults can be injected per reply. Built to carry
 * thousands of requests in a benchmark: no per-request logging, one write per
 * reply unless the policy asks for paced chunks.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { isRecord, safeParseJson } from '../util/safe-json.js';
import {
  anthropicConversation,
  anthropicError,
  anthropicEvents,
  anthropicMessage,
} from './mock-anthropic.js';
import {
  modelList,
  openAIChunks,
  openAICompletion,
  openAIConversation,
  openAIError,
} from './mock-openai.js';
import type { MockFault, MockPolicy, MockReply, MockRequest } from './mock-policy.js';
import { planReply } from './mock-reply.js';
import { mockRequest } from './mock-request.js';
import { waitUntil } from './wait-until.js';

export interface MockServerOptions {
  /** Produces each reply (or fault) from the request. */
  policy: MockPolicy;
  /** Port to listen on. Default 0 (any free port). */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Latency added before every generation reply, in ms. Default 0. */
  latencyMs?: number;
  /** Model ids served by `GET /v1/models`. Default `['mock-model']`. */
  models?: string[];
  /** Keep every request in `requests`. Default true; turn off for long benchmarks. */
  record?: boolean;
  /**
   * Keep the event loop busy while a reply waits out its latency, so replies
   * leave on time even on a machine where waking a sleeping process takes a
   * millisecond. Costs a core while replies are pending; for benchmarks.
   * Default false (a timer, then a busy wait for the last millisecond).
   */
  busyWait?: boolean;
}

/** Counters a test or benchmark can read. */
export interface MockCounters {
  /** HTTP requests received (any path). */
  requests: number;
  /** Request body bytes received. */
  bytesIn: number;
  /** Response bytes sent (bodies and stream frames). */
  bytesOut: number;
  /** Requests being handled right now. */
  inFlight: number;
  /** Highest `inFlight` seen since start or the last reset. */
  maxInFlight: number;
  /** TCP connections accepted (a client that keeps connections alive opens few). */
  connections: number;
}

export interface MockServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:40123/v1`. */
  url: string;
  port: number;
  counters: MockCounters;
  /** Generation requests received, in order (when recording). */
  requests: MockRequest[];
  resetCounters(): void;
  /** Stops listening and drops every open connection (hung ones included). */
  close(): Promise<void>;
}

type Protocol = 'openai' | 'anthropic';

export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  const latencyMs = options.latencyMs ?? 0;
  const models = options.models ?? ['mock-model'];
  const record = options.record ?? true;
  const busyWait = options.busyWait ?? false;
  const counters: MockCounters = {
    requests: 0,
    bytesIn: 0,
    bytesOut: 0,
    inFlight: 0,
    maxInFlight: 0,
    connections: 0,
  };
  const requests: MockRequest[] = [];
  let generationIndex = 0;

  const write = (res: ServerResponse, data: string, done?: () => void) => {
    counters.bytesOut += Buffer.byteLength(data);
    return res.write(data, done);
  };
  const finish = (
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: string,
  ) => {
    counters.bytesOut += Buffer.byteLength(body);
    res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  };
  const json = { 'content-type': 'application/json' };
  const errorBody = (protocol: Protocol, status: number, message: string) =>
    protocol === 'anthropic' ? anthropicError(status, message) : openAIError(status, message);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const arrived = performance.now();
    counters.requests++;
    counters.inFlight++;
    if (counters.inFlight > counters.maxInFlight) counters.maxInFlight = counters.inFlight;
    res.on('close', () => {
      counters.inFlight--;
    });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    counters.bytesIn += raw.length;
    const path = (req.url ?? '/').split('?')[0] ?? '/';

    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      finish(res, 200, json, modelList(models));
      return;
    }
    const protocol: Protocol | undefined =
      req.method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions')
        ? 'openai'
        : req.method === 'POST' && (path === '/v1/messages' || path === '/messages')
          ? 'anthropic'
          : undefined;
    if (!protocol) {
      finish(res, 404, json, openAIError(404, `mock server: no route for ${req.method} ${path}`));
      return;
    }
    const parsed = safeParseJson(raw.toString('utf8'));
    if (!parsed.ok || !isRecord(parsed.value)) {
      finish(
        res,
        400,
        json,
        errorBody(protocol, 400, 'mock server: request body is not a JSON object'),
      );
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const index = generationIndex++;
    const conversation =
      protocol === 'openai'
        ? openAIConversation(parsed.value)
        : anthropicConversation(parsed.value);
    const request = mockRequest(protocol, parsed.value, headers, index, conversation);
    if (record) requests.push(request);

    let reply: MockReply;
    try {
      const answer = await options.policy(request);
      reply = typeof answer === 'string' ? { content: answer } : answer;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      finish(res, 500, json, errorBody(protocol, 500, `mock policy failed: ${message}`));
      return;
    }
    // Latency counts from the request's arrival, to the tenth of a millisecond.
    const delay = latencyMs + (reply.delayMs ?? 0);
    if (delay > 0) await waitUntil(arrived + delay, busyWait);
    if (res.destroyed) return;
    respond(res, protocol, request, reply);
  };

  const respond = (
    res: ServerResponse,
    protocol: Protocol,
    request: MockRequest,
    reply: MockReply,
  ) => {
    const fault = reply.fault;
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = fault.contentType
        ? { 'content-type': fault.contentType }
        : { ...json };
      if (fault.retryAfterSeconds !== undefined)
        headers['retry-after'] = String(fault.retryAfterSeconds);
      finish(
        res,
        fault.status,
        headers,
        fault.body ?? errorBody(protocol, fault.status, `mock fault: HTTP ${fault.status}`),
      );
      return;
    }
    if (fault?.kind === 'hang') return; // never answer; close() drops the socket
    const plan = planReply(reply, request);
    const id = `${protocol === 'openai' ? 'chatcmpl' : 'msg'}-mock-${request.index}`;
    if (!request.stream) {
      const body = protocol === 'openai' ? openAICompletion(plan, id) : anthropicMessage(plan, id);
      if (fault?.kind === 'malformed-json') {
        finish(res, 200, json, body.slice(0, Math.max(1, Math.floor(body.length / 2))));
      } else if (fault?.kind === 'cut-stream' || fault?.kind === 'stall-stream') {
        res.writeHead(200, { ...json, 'content-length': String(Buffer.byteLength(body)) });
        write(res, body.slice(0, Math.floor(body.length / 2)), () => {
          if (fault.kind === 'cut-stream') res.destroy();
        });
      } else finish(res, 200, json, body);
      return;
    }
    const includeUsage =
      isRecord(request.body.stream_options) && request.body.stream_options.include_usage === true;
    const frames =
      protocol === 'openai' ? openAIChunks(plan, id, includeUsage) : anthropicEvents(plan, id);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const broken =
      protocol === 'openai'
        ? 'data: {"choices": [{"delta": {"content": \n\n'
        : 'event: content_block_delta\ndata: {"type": "content_block_delta", \n\n';
    streamFrames(res, frames, fault, reply.chunkDelayMs ?? 0, broken);
  };

  const streamFrames = (
    res: ServerResponse,
    frames: string[],
    fault: MockFault | undefined,
    pauseMs: number,
    broken: string,
  ) => {
    let stopAt = frames.length;
    if (fault?.kind === 'cut-stream' || fault?.kind === 'stall-stream') {
      stopAt = Math.min(fault.afterChunks, frames.length);
    }
    // A malformed frame right after the opening one.
    if (fault?.kind === 'malformed-json') stopAt = Math.min(1, frames.length);
    const ending = () => {
      if (fault?.kind === 'malformed-json') write(res, broken);
      if (fault?.kind === 'cut-stream') res.destroy();
      else if (fault?.kind !== 'stall-stream') res.end();
    };
    if (pauseMs <= 0) {
      const head = frames.slice(0, stopAt).join('');
      if (!fault) {
        // The whole stream in one write: a separate final chunk would wait on delayed ACKs.
        counters.bytesOut += Buffer.byteLength(head);
        res.end(head);
        return;
      }
      if (head) write(res, head, fault?.kind === 'cut-stream' ? ending : undefined);
      if (fault?.kind !== 'cut-stream' || !head) ending();
      return;
    }
    let at = 0;
    const next = () => {
      if (res.destroyed) return;
      if (at >= stopAt) {
        ending();
        return;
      }
      write(res, frames[at++] ?? '');
      setTimeout(next, pauseMs);
    };
    next();
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) finish(res, 500, json, openAIError(500, 'mock server: internal error'));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket) => {
    counters.connections++;
    socket.setNoDelay(true);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${hostInUrl}:${port}/v1`,
    port,
    counters,
    requests,
    resetCounters() {
      counters.requests = 0;
      counters.bytesIn = 0;
      counters.bytesOut = 0;
      counters.maxInFlight = counters.inFlight;
      counters.connections = 0;
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
