/**
 * A profile fit for trajectories and `reclamo profiles show`: where each key
 * comes from, never a key, and never the text of a key command (it may embed one).
 */
import { displayUrl } from './check-endpoints.js';
import type { ResolvedProfile, RoleSettings, RunSettings } from './types.js';

/** Where a role's key comes from. */
export type KeySourceRecord =
  | { kind: 'env'; variable: string }
  /** `program` is the command's first word only; its arguments are withheld. */
  | { kind: 'command'; program: string }
  | { kind: 'none' };

/** A role as described: every RoleSettings field except the key sources, plus {@link KeySourceRecord}. */
export type DescribedRole = Omit<RoleSettings, 'apiKeyEnv' | 'apiKeyCmd'> & {
  key: KeySourceRecord;
};

export interface DescribedProfile {
  name: string;
  source: string;
  root: DescribedRole;
  sub: DescribedRole;
  run: RunSettings;
}

/** Describes a resolved profile without key values or key-command text. */
export function describeProfile(profile: ResolvedProfile): DescribedProfile {
  return {
    name: profile.name,
    source: profile.source,
    root: describeRole(profile.root),
    sub: describeRole(profile.sub),
    run: { ...profile.run },
  };
}

function describeRole(role: RoleSettings): DescribedRole {
  const { apiKeyEnv, apiKeyCmd, ...rest } = role;
  return {
    ...rest,
    baseUrl: displayUrl(role.baseUrl),
    sampling: { ...role.sampling },
    key: keySource(apiKeyEnv, apiKeyCmd),
  };
}

function keySource(env: string | undefined, cmd: string | undefined): KeySourceRecord {
  if (env) return { kind: 'env', variable: env };
  if (cmd) return { kind: 'command', program: cmd.trim().split(/\s+/)[0] ?? '' };
  return { kind: 'none' };
}
