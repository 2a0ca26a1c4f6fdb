/**
 * The one schema of the profile file (`profiles.toml`). Later capabilities
 * add their settings here; everything else in src/config/ derives its key
 * lists from these shapes.
 */
import { z } from 'zod';

const positiveInt = z.int().positive();

/** The smallest `memory_headroom_mb`: below it the worker cannot reliably import a module or start a thread. */
export const MIN_MEMORY_HEADROOM_MB = 64;
const positiveNumber = z.number().positive();

/** An environment variable name; a value that looks like anything else may be a pasted key. */
const envName = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    'must be the NAME of an environment variable (letters, digits, _)',
  );

const baseUrl = z.string().refine(isPlainHttpUrl, {
  message: 'must be an http:// or https:// URL without a user name or password in it',
});

function isPlainHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
}

/** `sampling = { ... }`: fields outside the OpenAI schema are sent as body extras. */
export const samplingSchema = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().gt(0).max(1).optional(),
  top_k: z.int().min(-1).optional(),
  min_p: z.number().min(0).max(1).optional(),
  presence_penalty: z.number().min(-2).max(2).optional(),
  frequency_penalty: z.number().min(-2).max(2).optional(),
  repetition_penalty: z.number().positive().optional(),
  seed: z.int().optional(),
});

/** Fields a `[profiles.X.root]` / `[profiles.X.sub]` table may set; the profile level may set them too. */
export const roleShape = {
  base_url: baseUrl.optional(),
  api: z.enum(['openai', 'anthropic']).optional(),
  api_key_env: envName.optional(),
  api_key_cmd: z.string().min(1).optional(),
  concurrency: positiveInt.optional(),
  model: z.string().min(1).optional(),
  max_tokens: positiveInt.optional(),
  enable_thinking: z.boolean().optional(),
  reasoning_effort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
  sampling: samplingSchema.optional(),
  context_tokens: z.int().min(256).optional(),
  /** Per-request timeout in seconds. */
  timeout: positiveNumber.optional(),
};

/** Run settings: profile level only. */
export const runShape = {
  max_iterations: positiveInt.optional(),
  max_errors: positiveInt.optional(),
  exec_timeout: positiveNumber.optional(),
  max_timeout: positiveNumber.optional(),
  subcall_chars: positiveInt.optional(),
  prompt_version: z.enum(['v0.1', 'v0.2']).optional(),
  max_subcalls_per_run: z.int().min(0).optional(),
  max_subcalls_per_exec: z.int().min(0).optional(),
  output_truncate_chars: positiveInt.optional(),
  planner_style: z.enum(['reclamo', 'upstream-rlm-v0']).optional(),
  protocol: z.enum(['fence', 'tools']).optional(),
  python: z.string().min(1).optional(),
  max_depth: positiveInt.optional(),
  token_budget: positiveInt.optional(),
  compaction_threshold_pct: z.number().gt(0).lt(1).optional(),
  hard_ceiling_pct: z.number().gt(0).max(1).optional(),
  system_prompt_file: z.string().min(1).optional(),
  memory_headroom_mb: z.int().min(MIN_MEMORY_HEADROOM_MB).optional(),
};

/** A table names one key source: an environment variable or a command, not both. */
function oneKeySource(table: {
  api_key_env?: string | undefined;
  api_key_cmd?: string | undefined;
}) {
  return !(table.api_key_env && table.api_key_cmd);
}
const ONE_KEY_SOURCE = {
  message:
    'cannot be set together with api_key_env in the same table. Fix: keep one of the two key sources',
  path: ['api_key_cmd'],
};

export const roleSchema = z.strictObject(roleShape).refine(oneKeySource, ONE_KEY_SOURCE);

export const profileSchema = z
  .strictObject({
    ...roleShape,
    ...runShape,
    root: roleSchema.optional(),
    sub: roleSchema.optional(),
  })
  .refine(oneKeySource, ONE_KEY_SOURCE);

export const profileFileSchema = z.strictObject({
  profiles: z.record(z.string(), profileSchema).optional(),
});

export type RawSampling = z.infer<typeof samplingSchema>;
export type RawRole = z.infer<typeof roleSchema>;
export type RawProfile = z.infer<typeof profileSchema>;
export type RawProfileFile = z.infer<typeof profileFileSchema>;

/** Valid keys at each level of the file, for suggestions. */
export const ROLE_KEYS: readonly string[] = Object.keys(roleShape);
export const RUN_KEYS: readonly string[] = Object.keys(runShape);
export const PROFILE_KEYS: readonly string[] = [...ROLE_KEYS, ...RUN_KEYS, 'root', 'sub'];
export const SAMPLING_KEYS: readonly string[] = Object.keys(samplingSchema.shape);
export const FILE_KEYS: readonly string[] = ['profiles'];

/** Keys whose value must be an integer (for messages: zod reports them as numbers). */
export const INTEGER_KEYS: ReadonlySet<string> = new Set(
  Object.entries({ ...roleShape, ...runShape, ...samplingSchema.shape })
    .filter(([, schema]) => {
      const inner = schema.unwrap();
      return inner instanceof z.ZodNumber && inner.isInt;
    })
    .map(([key]) => key),
);
