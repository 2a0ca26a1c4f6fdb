/**
 * Operations on a tree level that already exists: one frame, or a fan-out of
 * frames. The public entry points (infer, map, runPolicy) and the nested
 * calls of read frames are built on these.
 */
import { ConfigError } from '../errors.js';
import { type Contract, type ContractInput, resolveContract } from './contract.js';
import { PartialResultError } from './errors.js';
import { type FrameResult, runFrame, type ToolsFactory } from './frame.js';
import type { InferenceTree } from './tree.js';
import type { View } from './views.js';

/** What one frame may do beyond reading its views. */
export type Capabilities = 'none' | 'read';

/** A task of a map: its text, or its text with views and a contract of its own. */
export type MapTask = string | { task: string; views?: readonly View[]; contract?: ContractInput };

/** One task's result: `ok` with its value, `incomplete` with its observation, or `error`. */
export type MapResult<T = unknown> = FrameResult<T>;

/** A map task checked: contract resolved, views not yet read. */
export interface PreparedTask {
  task: string;
  views: readonly View[];
  contract: Contract;
}

/** Default frames in flight at once in a map. */
export const DEFAULT_MAP_CONCURRENCY = 8;

/** The value of a finished frame and its trace id. */
export interface Traced<T> {
  value: T;
  traceId: string;
}

/** Checks a task argument: model code may hand over anything. */
export function requireTask(task: unknown, where: string): string {
  if (typeof task !== 'string' || task.trim() === '') {
    throw new ConfigError(`${where}: the task must be a non-empty string.`, undefined, 'task');
  }
  return task;
}

/** True for `'read'`, false for `'none'` or nothing; a ConfigError for anything else. */
export function readCapability(capabilities: unknown): boolean {
  if (capabilities === undefined || capabilities === 'none') return false;
  if (capabilities === 'read') return true;
  throw new ConfigError(
    `capabilities must be 'none' or 'read', got ${JSON.stringify(capabilities)}.`,
    undefined,
    'capabilities',
  );
}

/** Hands back a frame's value, or throws its incompleteness or its error. */
export function unwrap<T>(result: FrameResult): Traced<T> {
  if (result.status === 'ok') return { value: result.value as T, traceId: result.traceId };
  if (result.status === 'incomplete') throw new PartialResultError(result.observation);
  throw result.error;
}

/** Runs one frame on an existing tree level. */
export async function inferOnTree(
  tree: InferenceTree,
  task: string,
  options: { views?: readonly View[]; contract?: ContractInput; read?: boolean; origin: string },
  tools?: ToolsFactory,
): Promise<FrameResult> {
  const contract = resolveContract(options.contract);
  return runFrame(
    tree,
    {
      task,
      views: options.views ?? [],
      contract,
      read: options.read ?? false,
      origin: options.origin,
    },
    tools,
  );
}

/** Checks every task and contract before any frame starts (a bad one is a ConfigError). */
export function prepareTasks(tasks: unknown, fallback: ContractInput | undefined): PreparedTask[] {
  if (!Array.isArray(tasks)) {
    throw new ConfigError('map: tasks must be an array of tasks.', undefined, 'tasks');
  }
  const common = resolveContract(fallback);
  return tasks.map((item: unknown, index) => {
    if (typeof item === 'string' && item.trim() !== '') {
      return { task: item, views: [], contract: common };
    }
    if (typeof item === 'object' && item !== null) {
      const { task, views, contract } = item as Record<string, unknown>;
      if (typeof task === 'string' && task.trim() !== '') {
        if (views !== undefined && !Array.isArray(views)) {
          throw new ConfigError(
            `map: task ${index + 1} has views that are not an array.`,
            undefined,
            'views',
          );
        }
        return {
          task,
          views: (views as View[] | undefined) ?? [],
          contract: contract === undefined ? common : resolveContract(contract as ContractInput),
        };
      }
    }
    throw new ConfigError(
      `map: task ${index + 1} is not a task: pass a non-empty string or { task, views?, contract? }.`,
      undefined,
      'tasks',
    );
  });
}

/** Checks a map's concurrency option. */
export function mapConcurrency(value: number | undefined): number {
  const n = value ?? DEFAULT_MAP_CONCURRENCY;
  if (!Number.isInteger(n) || n < 1) {
    throw new ConfigError(
      `map: concurrency must be a whole number of at least 1, got ${n}.`,
      undefined,
      'concurrency',
    );
  }
  return n;
}

/** Runs prepared tasks on an existing tree level, at most `concurrency` at a time, in task order. */
export async function mapOnTree(
  tree: InferenceTree,
  tasks: readonly PreparedTask[],
  options: {
    concurrency?: number;
    read: boolean;
    origin: string;
    onResult?: (index: number, result: MapResult) => void;
  },
  tools?: ToolsFactory,
): Promise<MapResult[]> {
  const width = Math.min(mapConcurrency(options.concurrency), Math.max(1, tasks.length));
  const results = new Array<MapResult>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < tasks.length; index = next++) {
      const item = tasks[index] as PreparedTask;
      let result: MapResult;
      try {
        result = await runFrame(
          tree,
          { ...item, read: options.read, origin: options.origin },
          tools,
        );
      } catch (error) {
        // An unreadable view or an unwritable trace fails this task only.
        result = {
          status: 'error',
          error: error instanceof Error ? error : new Error(String(error)),
        };
      }
      results[index] = result;
      try {
        options.onResult?.(index, result);
      } catch {
        // A listener that throws must not lose the other results.
      }
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}
