import type { ResolvedProfile, RoleSettings } from '../../src/config/types.js';

/** A resolved profile for tests: both roles on `baseUrl` unless a role overrides it. */
export function testProfile(
  baseUrl: string,
  roles: { root?: Partial<RoleSettings>; sub?: Partial<RoleSettings> } = {},
): ResolvedProfile {
  const role = (extra: Partial<RoleSettings> | undefined, model: string): RoleSettings => ({
    baseUrl,
    api: 'openai',
    concurrency: 2,
    model,
    sampling: {},
    ...extra,
  });
  return {
    name: 'test',
    source: 'test fixture',
    root: role(roles.root, 'root-model'),
    sub: role(roles.sub, 'sub-model'),
    run: {},
  };
}
