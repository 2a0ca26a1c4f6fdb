/**
 * One LongBench Pro item as the dataset file holds it. The file is untrusted
 * input, so every record is checked; a bad record is reported with its
 * position and never half-used.
 */
import { z } from 'zod';

const text = z.string();
const id = z.union([z.string().min(1), z.int()]).transform(String);

export const recordSchema = z.looseObject({
  id,
  context: text,
  language: text,
  token_length: text,
  primary_task: text,
  secondary_task: text,
  contextual_requirement: text.optional(),
  difficulty: text.optional(),
  question_nonthinking: text,
  question_thinking: text.optional(),
  // The answer key: a list of lines (a bare string is one line).
  answer: z
    .union([z.array(z.union([z.string(), z.number()])).min(1), z.string()])
    .transform((a) => (Array.isArray(a) ? a : [a]).map(String)),
});

/** A checked record. */
export type LongBenchProRecord = z.infer<typeof recordSchema>;

/** Length buckets of the dataset, in order (Qwen-tokenizer lengths as the dataset labels them). */
export const BUCKETS = ['8k', '16k', '32k', '64k', '128k', '256k'] as const;
export type Bucket = (typeof BUCKETS)[number];

/** A bucket's place in order (8k = 0), or -1 for a label that is not one of them. */
export function bucketRank(label: string): number {
  return BUCKETS.indexOf(label.trim().toLowerCase() as Bucket);
}

/** Checks a parsed JSON value as a record; the error names the offending fields. */
export function checkRecord(
  value: unknown,
): { ok: true; record: LongBenchProRecord } | { ok: false; error: string } {
  const parsed = recordSchema.safeParse(value);
  if (parsed.success) return { ok: true, record: parsed.data };
  const fields = parsed.error.issues.map((i) => i.path.join('.') || '(record)');
  return { ok: false, error: `bad or missing ${[...new Set(fields)].join(', ')}` };
}
