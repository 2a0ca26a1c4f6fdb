/** From a merged profile entry to a ResolvedProfile: inheritance, env overrides, checks. */
import { ConfigError } from '../errors.js';
import { checkSharedEndpoints } from './check-endpoints.js';
import { applyEnvOverrides } from './env-overrides.js';
import { mergeRoles } from './merge.js';
import type { RawProfile, RawRole } from './schema.js';
import { ROLE_KEYS } from './schema.js';
import type { ResolvedProfile, RoleSettings, RunSettings } from './types.js';

/** Inputs of {@link resolveProfile}. */
export interface ResolveInput {
  name: string;
  raw: RawProfile;
  /** `built-in`, the user file's path, or both. */
  source: string;
  env: NodeJS.ProcessEnv;
  /** What error messages name as the place to fix (the user file, or `built-in profile`). */
  where: string;
}

/** Resolves one profile. Throws ConfigError when a role lacks a URL or model, or roles conflict. */
export function resolveProfile(input: ResolveInput): ResolvedProfile {
  const { name, raw, env, where } = input;
  const envUsed = new Set<string>();
  const roles = { root: {} as RoleSettings, sub: {} as RoleSettings };
  for (const role of ['root', 'sub'] as const) {
    const fields = mergeRoles(profileRoleFields(raw), raw[role] ?? {});
    for (const used of applyEnvOverrides(fields, env)) envUsed.add(used);
    roles[role] = toRoleSettings(fields, name, role, where);
  }
  checkSharedEndpoints(name, roles, where, [...envUsed]);
  const run = toRunSettings(raw, name, where);
  const source =
    envUsed.size > 0 ? `${input.source} + env ${[...envUsed].join(', ')}` : input.source;
  return { name, source, root: roles.root, sub: roles.sub, run };
}

/** The profile-level values of role fields, which both roles inherit. */
function profileRoleFields(raw: RawProfile): RawRole {
  const fields: Record<string, unknown> = {};
  for (const key of ROLE_KEYS) {
    const value = raw[key as keyof RawProfile];
    if (value !== undefined) fields[key] = value;
  }
  return fields as RawRole;
}

function toRoleSettings(fields: RawRole, name: string, role: string, where: string): RoleSettings {
  for (const key of ['base_url', 'model'] as const) {
    if (fields[key] === undefined) {
      throw new ConfigError(
        `${where}: profile "${name}" gives the ${role} role no ${key}. Fix: set ${key} in [profiles.${name}] or [profiles.${name}.${role}]${key === 'model' ? ', or set RECLAMO_MODEL' : ', or set RECLAMO_BASE_URL'}.`,
        where,
        `profiles.${name}.${role}.${key}`,
      );
    }
  }
  const settings: RoleSettings = {
    baseUrl: fields.base_url!,
    api: fields.api ?? 'openai',
    concurrency: fields.concurrency ?? 1,
    model: fields.model!,
    sampling: definedOnly(fields.sampling ?? {}),
  };
  if (fields.api_key_env !== undefined) settings.apiKeyEnv = fields.api_key_env;
  if (fields.api_key_cmd !== undefined) settings.apiKeyCmd = fields.api_key_cmd;
  if (fields.max_tokens !== undefined) settings.maxTokens = fields.max_tokens;
  if (fields.enable_thinking !== undefined) settings.enableThinking = fields.enable_thinking;
  if (fields.reasoning_effort !== undefined) settings.reasoningEffort = fields.reasoning_effort;
  if (fields.context_tokens !== undefined) settings.contextTokens = fields.context_tokens;
  if (fields.timeout !== undefined) settings.timeoutSeconds = fields.timeout;
  return settings;
}

const RUN_FIELDS = {
  max_iterations: 'maxIterations',
  max_errors: 'maxErrors',
  exec_timeout: 'execTimeout',
  max_timeout: 'maxTimeout',
  subcall_chars: 'subcallChars',
  prompt_version: 'promptVersion',
  max_subcalls_per_run: 'maxSubcallsPerRun',
  max_subcalls_per_exec: 'maxSubcallsPerExec',
  output_truncate_chars: 'outputTruncateChars',
  planner_style: 'plannerStyle',
  protocol: 'protocol',
  python: 'python',
  max_depth: 'maxDepth',
  token_budget: 'tokenBudget',
  compaction_threshold_pct: 'compactionThresholdPct',
  hard_ceiling_pct: 'hardCeilingPct',
  system_prompt_file: 'systemPromptFile',
  memory_headroom_mb: 'memoryHeadroomMb',
} as const satisfies Record<string, keyof RunSettings>;

function toRunSettings(raw: RawProfile, name: string, where: string): RunSettings {
  const run: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(RUN_FIELDS)) {
    const value = raw[key as keyof typeof RUN_FIELDS];
    if (value !== undefined) run[field] = value;
  }
  const settings = run as RunSettings;
  const { compactionThresholdPct: threshold, hardCeilingPct: ceiling } = settings;
  if (threshold !== undefined && ceiling !== undefined && threshold >= ceiling) {
    throw new ConfigError(
      `${where}: profile "${name}": compaction_threshold_pct must be below hard_ceiling_pct (0 < threshold < ceiling <= 1). Fix: lower compaction_threshold_pct or raise hard_ceiling_pct.`,
      where,
      `profiles.${name}.compaction_threshold_pct`,
    );
  }
  return settings;
}

/** Drops keys whose value is undefined (exactOptionalPropertyTypes). */
function definedOnly<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
