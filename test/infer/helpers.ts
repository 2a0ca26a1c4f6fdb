import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeParseJson } from '../../src/util/safe-json.js';

/** A fresh folder under .artifacts/infer for one test's traces. */
export function tempLogDir(name: string): string {
  const dir = join(
    process.cwd(),
    '.artifacts',
    'infer',
    `${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  );
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Ids t1, t2, ... so trace files have known names. */
export function countingIds(prefix = 't'): () => string {
  let next = 0;
  return () => `${prefix}${++next}`;
}

/** The events of a trace file, parsed. */
export function traceEvents(logDir: string, traceId: string): Record<string, unknown>[] {
  const text = readFileSync(join(logDir, 'inferences', `${traceId}.jsonl`), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const parsed = safeParseJson<Record<string, unknown>>(line);
      if (!parsed.ok) throw new Error(`bad trace line: ${parsed.error}`);
      return parsed.value;
    });
}
