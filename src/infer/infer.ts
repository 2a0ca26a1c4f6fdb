/**
 * `infer`: one bounded inference frame over explicit views, returning a value
 * of the contract's shape. Budget exhaustion rejects with a
 * PartialResultError carrying the observation; an invalid contract or an
 * unreadable view rejects before any model call.
 */
import { type ContractInput, type ContractValue, resolveContract } from './contract.js';
import {
  type Capabilities,
  inferOnTree,
  readCapability,
  requireTask,
  type Traced,
  unwrap,
} from './on-tree.js';
import { createTree, type TreeOptions } from './options.js';
import { readToolsFactory } from './read/tools.js';
import type { View } from './views.js';

/** Options of `infer`. */
export interface InferOptions<C extends ContractInput = 'text'> extends TreeOptions {
  /** What the frame reads: strings, `{ path }` files, `{ label, content }` literals. */
  views?: readonly View[];
  /** `'text'` (default), a JSON Schema (draft 2020-12) or a zod schema. */
  contract?: C;
  /** `'read'` lets the frame read and search files under `readRoots` and ask nested frames. Default `'none'`. */
  capabilities?: Capabilities;
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
  const result = await inferOnTree(
    tree,
    task,
    {
      ...(options.views ? { views: options.views } : {}),
      ...(options.contract === undefined ? {} : { contract: options.contract }),
      read,
      origin: 'infer',
    },
    read ? readToolsFactory : undefined,
  );
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
