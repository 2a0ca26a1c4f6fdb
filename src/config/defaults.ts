/**
 * Defaults that follow `prompt_version` (seed 000, "v0.2 defaults"). A value
 * set in a profile, the user file or code always wins; only unset fields take these.
 */
import type { ResolvedProfile, RoleSettings, RunSettings } from './types.js';

export type PromptVersion = 'v0.1' | 'v0.2';

/** The default prompt version. */
export const DEFAULT_PROMPT_VERSION: PromptVersion = 'v0.2';

/** One version's defaults. */
export interface VersionDefaults {
  run: Required<
    Pick<
      RunSettings,
      | 'maxIterations'
      | 'outputTruncateChars'
      | 'maxSubcallsPerRun'
      | 'maxSubcallsPerExec'
      | 'maxTimeout'
      | 'maxDepth'
      | 'protocol'
      | 'plannerStyle'
    >
  >;
  /** Root output cap with thinking on and off. */
  rootMaxTokens: { thinking: number; plain: number };
  subMaxTokens: number;
  /** Per-request timeout of both roles, seconds. */
  timeoutSeconds: number;
}

const SHARED = { maxDepth: 1, protocol: 'fence', plannerStyle: 'reclamo' } as const;

export const VERSION_DEFAULTS: Readonly<Record<PromptVersion, VersionDefaults>> = {
  'v0.1': {
    run: {
      ...SHARED,
      maxIterations: 20,
      outputTruncateChars: 2000,
      maxSubcallsPerRun: 64,
      maxSubcallsPerExec: 24,
      maxTimeout: 1800,
    },
    rootMaxTokens: { thinking: 4096, plain: 4096 },
    subMaxTokens: 2048,
    timeoutSeconds: 300,
  },
  'v0.2': {
    run: {
      ...SHARED,
      maxIterations: 30,
      outputTruncateChars: 20000,
      maxSubcallsPerRun: 256,
      maxSubcallsPerExec: 64,
      maxTimeout: 3600,
    },
    rootMaxTokens: { thinking: 8192, plain: 4096 },
    subMaxTokens: 4096,
    timeoutSeconds: 900,
  },
};

/** The profile with every unset versioned field filled from its prompt version's defaults. */
export function applyVersionDefaults(profile: ResolvedProfile): ResolvedProfile {
  const version = (profile.run.promptVersion ?? DEFAULT_PROMPT_VERSION) as PromptVersion;
  const defaults = VERSION_DEFAULTS[version] ?? VERSION_DEFAULTS[DEFAULT_PROMPT_VERSION];
  const rootCap =
    profile.root.enableThinking === false
      ? defaults.rootMaxTokens.plain
      : defaults.rootMaxTokens.thinking;
  return {
    ...profile,
    root: withRoleDefaults(profile.root, rootCap, defaults.timeoutSeconds),
    sub: withRoleDefaults(profile.sub, defaults.subMaxTokens, defaults.timeoutSeconds),
    run: { ...defaults.run, promptVersion: version, ...profile.run },
  };
}

function withRoleDefaults(
  role: RoleSettings,
  maxTokens: number,
  timeoutSeconds: number,
): RoleSettings {
  return {
    ...role,
    maxTokens: role.maxTokens ?? maxTokens,
    timeoutSeconds: role.timeoutSeconds ?? timeoutSeconds,
  };
}
