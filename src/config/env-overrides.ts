/**
 * RECLAMO_BASE_URL, RECLAMO_MODEL and RECLAMO_API_KEY, applied to both roles
 * of any profile. The key itself is never copied: the roles point at the
 * variable instead, so the value stays in the environment only.
 */
import { ConfigError } from '../errors.js';
import type { RawRole } from './schema.js';

/** The environment variable that carries a key given through the environment. */
export const ENV_API_KEY = 'RECLAMO_API_KEY';

/** Applies the overrides to one role's fields; returns the names of the variables used. */
export function applyEnvOverrides(role: RawRole, env: NodeJS.ProcessEnv): string[] {
  const used: string[] = [];
  const baseUrl = env.RECLAMO_BASE_URL;
  if (baseUrl) {
    if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
      throw new ConfigError(
        'RECLAMO_BASE_URL is not an http:// or https:// URL. Fix: set it to e.g. http://127.0.0.1:8080/v1, or unset it.',
        undefined,
        'RECLAMO_BASE_URL',
      );
    }
    const url = new URL(baseUrl);
    if (url.username || url.password) {
      throw new ConfigError(
        'RECLAMO_BASE_URL carries a user name or password. Fix: remove them from the URL and pass the key with RECLAMO_API_KEY.',
        undefined,
        'RECLAMO_BASE_URL',
      );
    }
    role.base_url = baseUrl;
    used.push('RECLAMO_BASE_URL');
  }
  if (env.RECLAMO_MODEL) {
    role.model = env.RECLAMO_MODEL;
    used.push('RECLAMO_MODEL');
  }
  if (env[ENV_API_KEY]) {
    role.api_key_env = ENV_API_KEY;
    delete role.api_key_cmd;
    used.push(ENV_API_KEY);
  }
  return used;
}
