/**
 * Writing a generated context to disk, where the REPL loads it from: a text
 * context becomes one file (written chunk by chunk), a dict becomes a
 * directory with one file per key.
 */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ContextSource } from '../sandbox/sandbox.js';
import type { TaskContext } from './task.js';

/** Write a context under `path` (a file for text, a directory for a dict). */
export async function writeTaskContext(context: TaskContext, path: string): Promise<ContextSource> {
  await mkdir(dirname(path), { recursive: true });
  if (context.kind === 'text') {
    await writeChunks(context.chunks, path);
    return { kind: 'file', path };
  }
  await rm(path, { recursive: true, force: true });
  await mkdir(path, { recursive: true });
  for (const [name, text] of Object.entries(context.files)) {
    await writeFile(join(path, name), text);
  }
  return { kind: 'directory', path };
}

/** Stream chunks to a file, honouring back-pressure. */
export async function writeChunks(chunks: readonly string[], path: string): Promise<void> {
  const out = createWriteStream(path);
  for (const chunk of chunks) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** The context as one string (a dict is rendered as labelled sections), for plain prompts. */
export function contextText(context: TaskContext): string {
  if (context.kind === 'text') return context.chunks.join('');
  return Object.entries(context.files)
    .map(([name, text]) => `=== ${name} ===\n${text}`)
    .join('\n');
}

/** Characters and digits of the context, without joining it. */
export function contextStats(context: TaskContext): { chars: number; digits: number } {
  const parts = context.kind === 'text' ? context.chunks : Object.values(context.files);
  let chars = 0;
  let digits = 0;
  for (const part of parts) {
    chars += part.length;
    digits += countDigits(part);
  }
  return { chars, digits };
}

function countDigits(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}
