export * from './config/index.js';
export * from './errors.js';
export * from './evals/index.js';
export * from './infer/index.js';
export {
  AnthropicEndpoint,
  type AnthropicOptions,
  createAnthropicModel,
} from './lm/anthropic.js';
export type { EndpointOptions, ModelSettings } from './lm/endpoint-base.js';
export {
  createEndpointPool,
  type EndpointPool,
  type EndpointPoolOptions,
  modelSettings,
  type PoolEndpoint,
} from './lm/endpoints.js';
export {
  commandKey,
  type KeySource,
  keySourceFor,
  literalKey,
} from './lm/keys.js';
export type * from './lm/model.js';
export { addUsage, emptyUsage } from './lm/model.js';
export {
  createOpenAICompatibleModel,
  OpenAICompatibleEndpoint,
  type OpenAICompatibleOptions,
} from './lm/openai-compatible.js';
export {
  type PingEndpointReport,
  type PingOptions,
  type PingReport,
  type PingRequestReport,
  ping,
} from './lm/ping.js';
export type { RetryOptions } from './lm/retry.js';
export { Semaphore } from './lm/semaphore.js';
export { splitThink } from './lm/think.js';
export * from './lm/tokens/index.js';
export { type BudgetInput, type InputBudget, inputBudget } from './rlm/context-budget/budget.js';
export { FORCED_FINISH_GRACE_MS } from './rlm/finish/forced-finish.js';
export { getPromptVersion, PROMPT_VERSIONS } from './rlm/prompts/index.js';
export {
  type CodeBlock,
  type FinalCandidate,
  type ParsedReply,
  parseReply,
} from './rlm/protocols/fence/grammar.js';
export { parseToolCalls, type ToolAction } from './rlm/protocols/tools/tool-calls.js';
export { executePythonTool, finalAnswerTool, rootTools } from './rlm/protocols/tools/tool-specs.js';
export { upstreamContextMetadata } from './rlm/protocols/upstream/context-metadata.js';
export {
  cutUpstreamResult,
  formatUpstreamResult,
  upstreamExecutionMessage,
} from './rlm/protocols/upstream/execution-result.js';
export { findReplBlocks, findUpstreamFinal } from './rlm/protocols/upstream/parser.js';
export { RunError, type RunOptions, type RunResult, type RunStatus, run } from './rlm/run.js';
export {
  createPythonSandbox,
  type PythonSandbox,
  type PythonSandboxOptions,
} from './sandbox/index.js';
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
export { ViewerError } from './viewer/errors.js';
export { type ExportOptions, type ExportResult, exportRun } from './viewer/export.js';
export { normaliseRecords, normaliseText } from './viewer/normalise.js';
export { type RunList, RunStore } from './viewer/run-store.js';
export type { RunSummary } from './viewer/run-summary.js';
export { startViewer, type ViewerOptions, type ViewerServer } from './viewer/server.js';
export type * from './viewer/view-model.js';
