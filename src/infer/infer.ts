/**
 * `infer`: one bounded inference frame over explicit views, returning a value
 * of the contract's shape. Budget exhaustion rejects with a
 * PartialResultError carrying the observation; an invalid contract or an
 * unreadable view rejects before any model call.
 */
import { ConfigError } from '../errors.js';
import { type ContractInput, type ContractValue, resolveContract } from './contract.js';
import { PartialResultError } from './errors.js';
import { type FrameResult, runFrame, type ToolsFactory } from './frame.js';
import { createTree, type TreeOptions } from './options.js';
import type { InferenceTree } from './tree.js';
import type { View } from './views.js';

/** What one frame may do beyond reading its views. */
export type Capabilities = 'none' | 'read';

/** Options of `infer`. */
export interface InferOptions<C extends ContractInput = 'text'> extends TreeOptions {
  /** What the frame reads: strings, `{ path }` files, `{ label, content }` literals. */
  views?: readonly View[];
  /** `'text'` (default), a JSON Schema (draft 2020-12) or a zod schema. */
  contract?: C;
  /** `'read'` lets the frame read and search files under `readRoots` and ask nested frames. Default `'none'`. */
  capabilities?: Capabilities;
}

/** The value of a finished frame and its trace id. */
export interface Traced<T> {
  value: T;
  traceId: string;
}

/** Checks the task argument: model code may hand over anything. */
export function requireTask(task: unknown, where: string): string {
  if (typeof task !== 'string' || task.trim() === '') {
    throw new ConfigError(`${where}: the task must be a non-empty string.`, undefined, 'task');
  }
  return task;
}

function readCapability(capabilities: unknown): boolean {
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

/** Runs one frame on a tree that already exists (nested calls, policies). */
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

/** Like `infer`, with the frame's trace id beside its value. */
export async function inferTraced<C extends ContractInput = 'text'>(
  task: string,
  options: InferOptions<C> = {},
): Promise<Traced<ContractValue<C>>> {
  requireTask(task, 'infer');
  resolveContract(options.contract);
  const read = readCapability(options.capabilities);
  const tree = await createTree(options);
  const result = await inferOnTree(tree, task, {
    ...(options.views ? { views: options.views } : {}),
    ...(options.contract === undefined ? {} : { contract: options.contract }),
    read,
    origin: 'infer',
  });
  return unwrap(result);
}

/**
 * One inference frame: a private conversation over `views` that returns a
 * value of the contract's shape (a string for `'text'`, the validated JSON
 * value for a schema, typed from a zod schema).
 */
export async function infer<C extends ContractInput = 'text'>(
  task: string,
  options: InferOptions<C> = {},
): Promise<ContractValue<C>> {
  return (await inferTraced(task, options)).value;
}
