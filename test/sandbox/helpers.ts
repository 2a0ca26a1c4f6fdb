import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { HostCall } from '../../src/sandbox/sandbox.js';

/** A fresh directory under .artifacts/ for one test file. */
export function artifactDir(name: string): string {
  const base = join(process.cwd(), '.artifacts', 'sandbox');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, `${name}-`));
}

/** A host callback that records calls and answers deterministically. */
export function recordingHost(answer?: (call: HostCall) => Promise<string | string[]>) {
  const calls: HostCall[] = [];
  const handler = async (call: HostCall): Promise<string | string[]> => {
    calls.push(call);
    if (answer) return answer(call);
    if (call.kind === 'llm_query_batched') return call.prompts.map((p) => `echo:${p}`);
    if (call.kind === 'llm_query') return `echo:${call.prompt}`;
    return `child:${call.question}`;
  };
  return { calls, handler };
}

export const isRoot = process.getuid?.() === 0;
