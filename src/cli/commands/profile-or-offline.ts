/** Resolve `--profile` for the eval commands: `scripted` starts the offline backend. */
import { loadProfile } from '../../config/index.js';
import type { ResolvedProfile } from '../../config/types.js';
import { SCRIPTED_PROFILE, startScriptedBackend } from '../../evals/offline.js';

export interface ProfileHandle {
  profile: ResolvedProfile;
  offline: boolean;
  close(): Promise<void>;
}

export async function openProfile(
  name: string | undefined,
  subErrorRate?: number,
): Promise<ProfileHandle> {
  if (name === SCRIPTED_PROFILE) {
    const backend = await startScriptedBackend(
      subErrorRate === undefined ? {} : { errorRate: subErrorRate },
    );
    return { profile: backend.profile, offline: true, close: () => backend.close() };
  }
  const profile = await loadProfile(name === undefined ? {} : { profile: name });
  return { profile, offline: false, close: async () => {} };
}
