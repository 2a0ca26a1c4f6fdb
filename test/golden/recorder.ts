/**
 * Records what a run did, byte for byte: every trajectory file of the run
 * tree (the root's, then each child's in link order, SFT included) and every
 * request each model received. The golden test compares this text with the
 * committed copy under test/fixtures/golden/, so a change that alters a
 * trajectory or a request cannot pass unnoticed.
 *
 * Only what is not a function of the run's own clock is normalised: the
 * REPL's measured execution time (`blocks[].result.elapsedMs`, real time in
 * the worker) and the mock server's port. To keep the fixtures small, a
 * string longer than LONG_STRING characters is kept as its head, its length
 * and SHA-256, and its tail: any change to it still changes the record.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A request as recorded: the messages (shared prefix with the previous request left out) and options. */
export interface RecordedRequest {
  messages: unknown[];
  [option: string]: unknown;
}

/** Lines of the trajectory files of a run tree, root first, children in the order they are linked. */
export function trajectoryLines(rootPath: string, sftPath?: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    out.push(`# trajectory ${depthLabel(seen.size)}`);
    const children: string[] = [];
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line === '') continue;
      const event = JSON.parse(line) as Record<string, unknown>;
      if (event.type === 'subcall' && typeof event.child === 'string') {
        children.push(join(dirname(path), event.child));
      }
      out.push(normaliseLine(event));
    }
    for (const child of children) if (existsSync(child)) visit(child);
  };
  visit(rootPath);
  if (sftPath) {
    out.push('# sft');
    for (const line of readFileSync(sftPath, 'utf8').split('\n')) {
      if (line !== '') out.push(JSON.stringify(digestLong(JSON.parse(line))));
    }
  }
  return out;
}

function depthLabel(n: number): string {
  return n === 1 ? 'root' : `child ${n - 1}`;
}

/** The line with the REPL's measured times zeroed and long strings digested. */
function normaliseLine(event: Record<string, unknown>): string {
  if (event.type === 'iteration' && Array.isArray(event.blocks)) {
    for (const block of event.blocks as { result?: { elapsedMs?: number } }[]) {
      if (block.result) block.result.elapsedMs = 0;
    }
  }
  return portless(JSON.stringify(digestLong(event)));
}

/** Strings longer than this are recorded as head, length, SHA-256 and tail. */
const LONG_STRING = 300;
const KEPT = 100;

/** A copy of a JSON value with every long string replaced by its digest. */
export function digestLong(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.length <= LONG_STRING) return value;
    const sha = createHash('sha256').update(value).digest('hex').slice(0, 16);
    return `${value.slice(0, KEPT)}[... ${value.length} chars, sha256 ${sha} ...]${value.slice(-KEPT)}`;
  }
  if (Array.isArray(value)) return value.map(digestLong);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, digestLong(v)]));
  }
  return value;
}

function portless(text: string): string {
  return text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
}

/**
 * Requests as lines. Each request keeps only the messages after the longest
 * prefix it shares with the previous request (`prefix` says how many were
 * left out), so a run's record grows with its turns, not their square.
 */
export function requestLines(label: string, requests: readonly RecordedRequest[]): string[] {
  const out = [`# ${label} requests (${requests.length})`];
  let previous: string[] = [];
  for (const request of requests) {
    const messages = request.messages.map((m) => JSON.stringify(digestLong(m)));
    let prefix = 0;
    while (prefix < previous.length && prefix < messages.length) {
      if (previous[prefix] !== messages[prefix]) break;
      prefix++;
    }
    const { messages: _, ...options } = request;
    out.push(
      portless(JSON.stringify(digestLong({ prefix, options }))),
      ...messages.slice(prefix).map((m) => `  ${portless(m)}`),
    );
    previous = messages;
  }
  return out;
}
