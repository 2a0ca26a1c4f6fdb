export * from './errors.js';
export * from './evals/index.js';
export type * from './lm/model.js';
export { addUsage, emptyUsage } from './lm/model.js';
export type * from './sandbox/sandbox.js';
export type * from './trace/events.js';
export { TRAJECTORY_SCHEMA_VERSION } from './trace/events.js';
