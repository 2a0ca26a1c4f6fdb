import { ConfigError } from '../../errors.js';
import type { PromptVersion } from './types.js';
import { v0_1 } from './v0_1.js';
import { v0_2 } from './v0_2.js';

export type { PromptDefaults, PromptVersion, SystemPromptOptions } from './types.js';

/** The prompt versions, by id. v0.2 is the default. */
export const PROMPT_VERSIONS: Readonly<Record<string, PromptVersion>> = {
  'v0.1': v0_1,
  'v0.2': v0_2,
};

export const DEFAULT_PROMPT_VERSION = 'v0.2';

/** The prompt version with this id; an unknown id is a configuration error. */
export function getPromptVersion(id: string = DEFAULT_PROMPT_VERSION): PromptVersion {
  const version = PROMPT_VERSIONS[id];
  if (!version) {
    throw new ConfigError(
      `Unknown prompt version "${id}". Use one of: ${Object.keys(PROMPT_VERSIONS).join(', ')} (e.g. --prompt-version v0.2).`,
      undefined,
      'prompt_version',
    );
  }
  return version;
}
