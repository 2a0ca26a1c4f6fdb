/**
 * Preparing a run: the profile it uses, its settings (options over profile
 * over the prompt version's defaults), the system prompt that replaces the
 * built-in one, and the interpreter for its REPLs.
 */
import type { ResolvedProfile } from '../config/types.js';
import { profileOf } from './run-models.js';
import type { RunOptions } from './run-options.js';
import { type ResolvedSettings, resolveSettings } from './settings.js';
import { readSystemPromptFile } from './system-prompt-file.js';

/** What a run is set up with before anything starts. */
export interface RunSetup {
  /** Undefined when the caller handed in models without a profile. */
  profile: ResolvedProfile | undefined;
  settings: ResolvedSettings;
  systemPrompt?: string;
  python?: string;
}

/** Settles the profile and settings of a run and reads its system prompt file. Throws ConfigError. */
export async function prepareRun(options: RunOptions): Promise<RunSetup> {
  const profile = await profileOf(options);
  const { models } = options;
  const settings = resolveSettings({
    ...(profile ? { run: profile.run, root: profile.root, sub: profile.sub } : {}),
    ...(models?.sub.contextTokens !== undefined
      ? { subContextTokens: models.sub.contextTokens }
      : {}),
    ...(models?.root.contextTokens !== undefined
      ? { rootContextTokens: models.root.contextTokens }
      : {}),
    overrides: options,
  });
  const systemPrompt =
    options.systemPrompt ??
    (settings.systemPromptFile !== undefined
      ? await readSystemPromptFile(settings.systemPromptFile)
      : undefined);
  const python = options.python ?? profile?.run.python;
  return {
    profile,
    settings,
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(python !== undefined ? { python } : {}),
  };
}
