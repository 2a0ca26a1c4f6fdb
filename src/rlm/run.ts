/**
 * `run()`: the root RLM. Resolves the profile, models and settings, then
 * drives the turn loop at depth 0 and returns the answer with its record.
 */
import { randomBytes } from 'node:crypto';
import { hasInlineModel, type InlineModel, inlineProfile } from '../config/inline-profile.js';
import type { ResolvedProfile } from '../config/types.js';
import { requireText } from '../context/require-text.js';
import { resolveContext } from '../context/resolve.js';
import { ConfigError, ReclamoError } from '../errors.js';
import type { LanguageModel, Usage } from '../lm/model.js';
import type { ContextSource } from '../sandbox/sandbox.js';
import type {
  EndpointRecord,
  ForcedFinishSource,
  StopReason,
  TrajectoryEvent,
} from '../trace/events.js';
import { runLoop } from './loop/run-rlm.js';
import { type StartedSandbox, startSandbox } from './loop/start-sandbox.js';
import { endpointsOfModels, profileRecord } from './profile-record.js';
import { RunShared, type RunStatus } from './run-tree.js';
import { type RunOverrides, resolveSettings } from './settings.js';
import { readSystemPromptFile } from './system-prompt-file.js';

export type { RunStatus } from './run-tree.js';

export interface RunOptions extends RunOverrides, InlineModel {
  /** The question to answer. */
  query: string;
  /** A file or folder path, `-` for standard input, or a ContextSource. */
  context: string | ContextSource;
  /**
   * A resolved profile, or a profile name to load (user file, env overrides). Without one,
   * `baseUrl` and `model` name the server and model; with one, they replace its own.
   */
  profile?: ResolvedProfile | string;
  /** The API key itself, for every endpoint (never written anywhere); else `apiKeyEnv`'s. */
  apiKey?: string;
  /** Models to use instead of the profile's endpoints (both roles needed). */
  models?: { root: LanguageModel; sub: LanguageModel };
  /** Endpoint records for the trajectory when `models` is given. */
  endpoints?: EndpointRecord[];
  /** Where trajectories go; default `runs`. */
  logDir?: string;
  /** Also write `<stem>.sft.jsonl` (one line per root turn). */
  sft?: boolean;
  /** Python interpreter for the REPL (default: the profile's, else python3 on PATH). */
  python?: string;
  /** Replaces the built-in system prompt (wins over `systemPromptFile`). */
  systemPrompt?: string;
  /** Environment for profile loading (default process.env). */
  env?: Record<string, string | undefined>;
  /** Each trajectory event as it is written, with the depth of the RLM that wrote it. */
  onEvent?: (event: TrajectoryEvent, depth: number) => void;
  /** Live progress: turn, sub-calls, tokens, elapsed and time left. */
  onStatus?: (status: RunStatus) => void;
  /** Cancels the run; the result then has stop reason `aborted`. */
  abortSignal?: AbortSignal;
  /** Test hooks: a clock (ms since epoch) and an id generator, for reproducible trajectories. */
  _internal?: { now?: () => number; generateId?: () => string };
}

export interface RunResult {
  /** The answer ('' when none could be produced). */
  answer: string;
  stopReason: StopReason;
  /** Root turns taken. */
  turns: number;
  /** Root turns taken inside child RLMs. */
  childTurns: number;
  /** Sub-calls in the whole run tree. */
  subcalls: number;
  usage: { root: Usage; sub: Usage };
  elapsedMs: number;
  runId: string;
  trajectoryPath: string;
  sftPath?: string;
  /** Where a forced finish found its answer, when the run ended in one. */
  forcedFinish?: { source: ForcedFinishSource; variable?: string };
}

/** The run stopped on a failure (an endpoint, the sandbox); `result` holds any partial answer. */
export class RunError extends ReclamoError {
  override readonly name: string = 'RunError';
  constructor(
    message: string,
    readonly result: RunResult,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The partial answer recovered from the REPL ('' when none). */
  get partialAnswer(): string {
    return this.result.answer;
  }
}

/**
 * Runs an RLM over a context until it answers. Limits end in a forced finish
 * and still return; an endpoint or sandbox failure throws RunError carrying
 * the partial result.
 */
export async function run(options: RunOptions): Promise<RunResult> {
  if (typeof options.query !== 'string' || options.query.trim() === '') {
    throw new ConfigError(
      'The question is empty. Pass the question to answer with -q/--query (query in code).',
    );
  }
  const now = options._internal?.now ?? (() => performance.timeOrigin + performance.now());
  const generateId = options._internal?.generateId ?? (() => randomBytes(3).toString('hex'));
  const context = await resolveContext(options.context);
  let started: StartedSandbox | undefined;
  try {
    const profile = await profileOf(options);
    const settings = resolveSettings({
      ...(profile ? { run: profile.run, root: profile.root, sub: profile.sub } : {}),
      ...(options.models?.sub.contextTokens !== undefined
        ? { subContextTokens: options.models.sub.contextTokens }
        : {}),
      ...(options.models?.root.contextTokens !== undefined
        ? { rootContextTokens: options.models.root.contextTokens }
        : {}),
      overrides: options,
    });
    const systemPrompt =
      options.systemPrompt ??
      (settings.systemPromptFile !== undefined
        ? await readSystemPromptFile(settings.systemPromptFile)
        : undefined);
    const python = options.python ?? profile?.run.python;
    // The worker starts loading the context while the model layer is set up.
    started = startSandbox(context.source, settings, python);
    const wired = await modelsOf(options, profile);
    const given = typeof options.context === 'string' ? options.context : undefined;
    const source = context.source;
    if (source.kind === 'file' || source.kind === 'directory') {
      requireText(source, (await started.sandbox).contextShape, given ?? source.path);
    }
    const shared = new RunShared({
      settings,
      models: wired.models,
      endpoints: wired.endpoints,
      profile: profile ? profileRecord(profile) : { name: '(models)', settings: {} },
      logDir: options.logDir ?? 'runs',
      sft: options.sft === true,
      now,
      generateId,
      ...(python !== undefined ? { python } : {}),
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      ...(options.onStatus ? { onStatus: options.onStatus } : {}),
    });
    const outcome = await runLoop(shared, {
      query: options.query,
      context: context.source,
      depth: 0,
      started,
    });
    started = undefined;
    const result: RunResult = {
      answer: outcome.answer,
      stopReason: outcome.stopReason,
      turns: outcome.turns,
      childTurns: shared.childTurns,
      subcalls: shared.subcalls,
      usage: shared.usage,
      elapsedMs: now() - shared.start,
      runId: outcome.runId,
      trajectoryPath: outcome.trajectoryPath,
      ...(outcome.sftPath ? { sftPath: outcome.sftPath } : {}),
      ...(outcome.forced ? { forcedFinish: outcome.forced } : {}),
    };
    if (outcome.error !== undefined && outcome.stopReason !== 'aborted') {
      const cause = outcome.error;
      const why = cause instanceof Error ? cause.message : String(cause);
      throw new RunError(`The run stopped: ${why}`, result, { cause });
    }
    return result;
  } finally {
    // A REPL started for a run that failed before its loop took it over.
    if (started) await started.sandbox.then((sb) => sb.close()).catch(() => {});
    await context.cleanup();
  }
}

/**
 * The profile a run uses: given, loaded by name (or the default), built from `baseUrl` and
 * `model`, or none with models. Inline model options replace a profile's own.
 */
async function profileOf(options: RunOptions): Promise<ResolvedProfile | undefined> {
  const inline = inlineOf(options);
  const given = hasInlineModel(inline);
  const env = options.env ?? process.env;
  if (options.models) {
    if (given) {
      throw new ConfigError(
        'run() got models and also baseUrl, model, subModel, apiKeyEnv or contextTokens. Fix: pass one or the other.',
      );
    }
    if (typeof options.profile !== 'object') return undefined;
  }
  if (typeof options.profile === 'object') {
    return given ? inlineProfile(inline, options.profile, { env }) : options.profile;
  }
  // A server and model with no profile named: nothing to load.
  if (options.profile === undefined && inline.baseUrl !== undefined) {
    return inlineProfile(inline, undefined, { env });
  }
  const { loadProfile } = await import('../config/index.js');
  // Without a name, loadProfile falls back to RECLAMO_PROFILE, then the user file's default.
  const loaded = await loadProfile({
    ...(options.profile !== undefined ? { profile: options.profile } : {}),
    env,
  });
  return given ? inlineProfile(inline, loaded, { env }) : loaded;
}

function inlineOf(options: RunOptions): InlineModel {
  const inline: InlineModel = {};
  if (options.baseUrl !== undefined) inline.baseUrl = options.baseUrl;
  if (options.model !== undefined) inline.model = options.model;
  if (options.subModel !== undefined) inline.subModel = options.subModel;
  if (options.apiKeyEnv !== undefined) inline.apiKeyEnv = options.apiKeyEnv;
  if (options.contextTokens !== undefined) inline.contextTokens = options.contextTokens;
  return inline;
}

async function modelsOf(
  options: RunOptions,
  profile: ResolvedProfile | undefined,
): Promise<{ models: { root: LanguageModel; sub: LanguageModel }; endpoints: EndpointRecord[] }> {
  if (options.models) {
    return {
      models: options.models,
      endpoints: options.endpoints ?? endpointsOfModels(options.models),
    };
  }
  if (!profile) throw new ConfigError('run() needs a profile or models: { root, sub }.');
  // The model layer loads only when a run needs it.
  const { createEndpointPool } = await import('../lm/endpoints.js');
  const pool = createEndpointPool(profile, {
    env: options.env ?? process.env,
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
  });
  return { models: { root: pool.root, sub: pool.sub }, endpoints: pool.endpoints };
}
