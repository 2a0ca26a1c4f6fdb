/** Field-by-field merging of profile entries (a user entry over a built-in). */
import type { RawProfile, RawRole } from './schema.js';

/** `override` over `base`: scalar fields replace, `root`, `sub` and `sampling` merge by field. */
export function mergeProfiles(
  base: Readonly<RawProfile> | undefined,
  override: RawProfile,
): RawProfile {
  if (!base) return structuredClone(override);
  const merged: RawProfile = { ...mergeRoles(base, override) };
  const root = mergeOptionalRole(base.root, override.root);
  const sub = mergeOptionalRole(base.sub, override.sub);
  if (root) merged.root = root;
  if (sub) merged.sub = sub;
  return merged;
}

/** Role fields of `override` over `base`, sampling merged by field. Works on profile entries too. */
export function mergeRoles<T extends RawRole>(base: Readonly<T>, override: Readonly<T>): T {
  const merged = { ...structuredClone(base), ...structuredClone(override) } as T;
  // The key source is one setting: naming either field replaces both inherited ones.
  if (override.api_key_env !== undefined || override.api_key_cmd !== undefined) {
    if (override.api_key_env === undefined) delete merged.api_key_env;
    if (override.api_key_cmd === undefined) delete merged.api_key_cmd;
  }
  if (base.sampling || override.sampling) {
    merged.sampling = { ...base.sampling, ...override.sampling };
  }
  return merged;
}

function mergeOptionalRole(
  base: Readonly<RawRole> | undefined,
  override: Readonly<RawRole> | undefined,
): RawRole | undefined {
  if (!base) return override && structuredClone(override);
  if (!override) return structuredClone(base);
  return mergeRoles(base, override);
}
