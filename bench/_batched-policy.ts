/**
 * The policy of the loop bench's batched section, loaded by the mock server
 * in its own process: the root asks for 200 llm_query_batched items, each sub
 * reply comes after 50 ms. `report()` gives the span from the first sub-call
 * request the server received to the last sub-call reply it sent.
 */
import { performance } from 'node:perf_hooks';
import type { MockPolicy } from '../src/testing/index.js';

export const SUB_DELAY_MS = 50;
export const ITEMS = 200;

let first = Number.POSITIVE_INFINITY;
let last = Number.NEGATIVE_INFINITY;
let subcalls = 0;

export const policy: MockPolicy = (req) => {
  if (req.model === 'sub-model') {
    const now = performance.now();
    first = Math.min(first, now);
    last = Math.max(last, now + SUB_DELAY_MS);
    subcalls++;
    return { content: 'ok', delayMs: SUB_DELAY_MS };
  }
  return req.messages.length === 2
    ? `\`\`\`repl\nr = llm_query_batched([f'item {i}' for i in range(${ITEMS})])\nprint(len(r), r[0])\n\`\`\``
    : 'FINAL(done)';
};

export function report(): { spanMs: number; subcalls: number } {
  return { spanMs: last - first, subcalls };
}

export function reset(): void {
  first = Number.POSITIVE_INFINITY;
  last = Number.NEGATIVE_INFINITY;
  subcalls = 0;
}
