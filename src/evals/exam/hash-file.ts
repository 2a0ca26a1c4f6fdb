/**
 * The exam hash list: the SHA-256 (after {@link normalizeForMatch}) of every
 * document and question a frozen independent eval can generate, so practice
 * data that happens to contain one is refused. The file records the task
 * files it was built from; reading it checks they are unchanged, since hashes
 * of old generators would let a changed exam slip through.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { isRecord, safeParseJson } from '../../util/safe-json.js';
import { EvalConfigError } from '../errors.js';
import { diffHashes, hashTaskDir } from '../independent/task-files.js';

export const EXAM_HASHES_KIND = 'reclamo-exam-hashes';

const fileSchema = z.object({
  kind: z.literal(EXAM_HASHES_KIND),
  version: z.literal(1),
  builtAt: z.string(),
  tasks: z.object({ dir: z.string(), files: z.record(z.string(), z.string()) }),
  sizes: z.record(z.string(), z.array(z.union([z.number(), z.string()]))),
  seeds: z.int().nonnegative(),
  hashes: z.array(z.string().regex(/^[0-9a-f]{64}$/)),
});

export type ExamHashFile = z.infer<typeof fileSchema>;

/**
 * Reads an exam hash list. When the task folder it was built from is still
 * there, its files must hash as they did; otherwise the list is stale.
 */
export async function readExamHashes(path: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EvalConfigError(
      `--exam-hashes ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}). Fix: build it with reclamo eval independent exam-hashes --tasks DIR --out ${path}.`,
    );
  }
  const parsed = safeParseJson(text);
  const checked = fileSchema.safeParse(parsed.ok ? parsed.value : undefined);
  if (!checked.success) {
    const what = parsed.ok && isRecord(parsed.value) ? 'not an exam hash list' : 'not JSON';
    throw new EvalConfigError(
      `--exam-hashes ${path}: ${what}. Fix: build it with reclamo eval independent exam-hashes.`,
    );
  }
  const file = checked.data;
  const now = await hashTaskDir(file.tasks.dir).catch(() => undefined);
  if (now) {
    const changes = diffHashes(file.tasks.files, now);
    if (changes.length > 0) {
      throw new EvalConfigError(
        `--exam-hashes ${path} is stale: in ${file.tasks.dir} ${changes.join(', ')} since it was built. Fix: rebuild it with reclamo eval independent exam-hashes --tasks ${file.tasks.dir} --out ${path}.`,
      );
    }
  }
  return new Set(file.hashes);
}
