export * from './config/index.js';
export * from './errors.js';
export * from './evals/index.js';
export type * from './lm/model.js';
export { addUsage, emptyUsage } from './lm/model.js';
export { type CodeBlock, type FinalCandidate, type ParsedReply, parseReply } from './rlm/fence.js';
export { getPromptVersion, PROMPT_VERSIONS } from './rlm/prompts/index.js';
export type * from './sandbox/sandbox.js';
export type * from './trace/events.js';
export { TRAJECTORY_SCHEMA_VERSION } from './trace/events.js';
export {
  type ParsedTrajectory,
  parseTrajectory,
  readTrajectory,
  type TrajectoryLineError,
} from './trace/reader.js';
export { readSft, type SftRecord } from './trace/sft.js';
