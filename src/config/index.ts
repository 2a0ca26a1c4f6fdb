/** Profiles: built-ins, the TOML user file, environment overrides and validation. */
export { builtInProfiles } from './built-ins.js';
export type { DescribedProfile, DescribedRole, KeySourceRecord } from './describe.js';
export { describeProfile } from './describe.js';
export { ENV_API_KEY } from './env-overrides.js';
export {
  hasInlineModel,
  type InlineModel,
  type InlineModelNames,
  inlineProfile,
} from './inline-profile.js';
export type { LoadProfileOptions, ProfileList, ProfileListEntry } from './load.js';
export { listProfiles, loadProfile } from './load.js';
export type { RawProfile, RawProfileFile, RawRole, RawSampling } from './schema.js';
export { profileFileSchema } from './schema.js';
export type * from './types.js';
export { locateUserFile, parseUserFile } from './user-file.js';
