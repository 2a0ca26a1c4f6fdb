/**
 * The options every entry point (infer, map, runPolicy) takes for the tree it
 * starts, and how they become a tree. The outermost call fixes them; calls
 * made from inside a frame inherit them and cannot override them.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ResolvedProfile } from '../config/types.js';
import { ConfigError } from '../errors.js';
import type { ReasoningEffort } from '../lm/model.js';
import { type Budget, createBudget } from './budget.js';
import type { InferEventListener } from './events.js';
import { type ModelChoice, resolveModel } from './model-route.js';
import { ensureTraceDir } from './trace/writer.js';
import { defaultTraceId, InferenceTree } from './tree.js';
import { DEFAULT_MAX_VIEW_BYTES } from './views.js';

/** The budget a call gets when it is given none. */
export const DEFAULT_BUDGET = { calls: 16, tokens: 80_000, depth: 3 } as const;
/** Default tool rounds of a read frame. */
export const DEFAULT_MAX_TOOL_ROUNDS = 8;

/** Options for the whole tree a call starts. */
export interface TreeOptions {
  /** The budget shared by every frame of the tree. Default: a fresh DEFAULT_BUDGET. */
  budget?: Budget;
  /** A LanguageModel, a profile role (`'root'`, `'sub'`), or a model name on the profile's endpoint. Default `'root'`. */
  model?: ModelChoice;
  /** Profile name or loaded profile, used when `model` is not a LanguageModel. Default: the default profile. */
  profile?: string | ResolvedProfile;
  /** Reasoning effort sent with every request of the tree. */
  effort?: ReasoningEffort;
  /** Folder for traces (`<logDir>/inferences/<id>.jsonl`), or false to write none. Default `runs`. */
  logDir?: string | false;
  /** Progress events of every frame of the tree. */
  onEvent?: InferEventListener;
  /** Cancels every request of the tree. */
  abortSignal?: AbortSignal;
  /** Largest view in bytes. Default 4 MiB. */
  maxViewBytes?: number;
  /** Folders read frames may read under. Default: the current folder. */
  readRoots?: string[];
  /** Tool rounds a read frame may take before its last request. Default 8. */
  maxToolRounds?: number;
  /** Trace id of a frame (or run) outside this call that started it, recorded as the parent. */
  parentId?: string;
  /** Injectable ids and clocks, so traces written in tests are reproducible. */
  _internal?: { generateId?: () => string; now?: () => Date; clock?: () => number };
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigError(
      `${name} must be a whole number of at least 1, got ${value}.`,
      undefined,
      name,
    );
  }
  return value;
}

function realRoot(root: string): string {
  try {
    return realpathSync(resolve(root));
  } catch (error) {
    throw new ConfigError(
      `readRoots: cannot use ${root}: ${(error as Error).message}. Pass folders that exist.`,
      root,
      'readRoots',
    );
  }
}

/** Resolves the options into the outermost level of a tree. */
export async function createTree(options: TreeOptions): Promise<InferenceTree> {
  const clock = options._internal?.clock ?? (() => performance.now());
  const now = options._internal?.now ?? (() => new Date());
  const model = await resolveModel({
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.profile === undefined ? {} : { profile: options.profile }),
  });
  const budget = options.budget ?? createBudget(DEFAULT_BUDGET);
  const logDir = options.logDir ?? 'runs';
  // Checked once here, so a folder that cannot be made fails before any model call.
  if (logDir !== false) ensureTraceDir(logDir);
  return new InferenceTree(
    {
      model,
      ...(options.effort === undefined ? {} : { effort: options.effort }),
      logDir,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      maxViewBytes: positive(options.maxViewBytes ?? DEFAULT_MAX_VIEW_BYTES, 'maxViewBytes'),
      readRoots: (options.readRoots ?? [process.cwd()]).map(realRoot),
      maxToolRounds: positive(options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS, 'maxToolRounds'),
      generateId: options._internal?.generateId ?? (() => defaultTraceId(now())),
      now,
      clock,
      startedAt: clock(),
    },
    budget,
    options.parentId,
  );
}
