/** Roles that share a base_url share one endpoint, key and semaphore, so they must agree on them. */
import { ConfigError } from '../errors.js';
import type { RoleSettings } from './types.js';

/** Normalised form of a base URL for comparison (no trailing slash). */
export function endpointKey(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** Throws when root and sub share an endpoint but not its key source or concurrency. */
export function checkSharedEndpoints(
  profile: string,
  roles: { root: RoleSettings; sub: RoleSettings },
  where: string,
  envUsed: readonly string[],
): void {
  const { root, sub } = roles;
  if (endpointKey(root.baseUrl) !== endpointKey(sub.baseUrl)) return;
  const cause = envUsed.includes('RECLAMO_BASE_URL')
    ? ' (RECLAMO_BASE_URL puts both roles on one URL)'
    : '';
  const tables = `[profiles.${profile}.root] and [profiles.${profile}.sub]`;
  const url = displayUrl(root.baseUrl);
  if (root.apiKeyEnv !== sub.apiKeyEnv || root.apiKeyCmd !== sub.apiKeyCmd) {
    const both =
      root.apiKeyCmd && sub.apiKeyCmd && root.apiKeyEnv === sub.apiKeyEnv
        ? 'both use api_key_cmd, with different commands'
        : `root: ${keySourceKind(root)}, sub: ${keySourceKind(sub)}`;
    // Name where each key comes from, never a command's text: it may embed a secret.
    throw new ConfigError(
      `${where}: profile "${profile}": root and sub share ${url}${cause} but disagree on the key source (${both}). Fix: set the same api_key_env / api_key_cmd in ${tables}, or set it once at the profile level.`,
      where,
      `profiles.${profile}.root.api_key_env`,
    );
  }
  if (root.concurrency !== sub.concurrency) {
    throw new ConfigError(
      `${where}: profile "${profile}": root and sub share ${url}${cause} but disagree on concurrency (root ${root.concurrency}, sub ${sub.concurrency}). Fix: set one concurrency at the profile level, or the same value in ${tables}.`,
      where,
      `profiles.${profile}.root.concurrency`,
    );
  }
}

function keySourceKind(role: RoleSettings): string {
  if (role.apiKeyEnv && role.apiKeyCmd) return `env ${role.apiKeyEnv} and a command`;
  if (role.apiKeyEnv) return `env ${role.apiKeyEnv}`;
  if (role.apiKeyCmd) return 'api_key_cmd';
  return 'no key';
}

/** A base URL fit for messages: origin and path, never a query string (it could carry a key). */
export function displayUrl(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return '(invalid URL)';
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
