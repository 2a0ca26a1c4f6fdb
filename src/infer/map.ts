/**
 * `map`: fans tasks out as frames under one budget, at most `concurrency` at
 * a time. Results keep task order; one failure never sinks the others.
 */
import type { ContractInput, ContractValue } from './contract.js';
import {
  type Capabilities,
  type MapResult,
  type MapTask,
  mapConcurrency,
  mapOnTree,
  prepareTasks,
  readCapability,
} from './on-tree.js';
import { createTree, type TreeOptions } from './options.js';
import { readToolsFactory } from './read/tools.js';

/** Options of `map`. */
export interface MapOptions<C extends ContractInput = 'text'> extends TreeOptions {
  /** Contract of every task that does not bring its own. Default `'text'`. */
  contract?: C;
  /** Frames in flight at once. Default 8. */
  concurrency?: number;
  /** `'read'` gives every frame the read tools. Default `'none'`. */
  capabilities?: Capabilities;
  /** Called as each task finishes (in finishing order), with its index and result. */
  onResult?: (index: number, result: MapResult<ContractValue<C>>) => void;
}

/**
 * Fans `tasks` out as frames sharing one budget; results are in task order,
 * each `{ status: 'ok', value, traceId }`, `{ status: 'incomplete', observation }`
 * or `{ status: 'error', error }`. A bad task or contract rejects before any
 * frame starts.
 */
export async function map<C extends ContractInput = 'text'>(
  tasks: readonly MapTask[],
  options: MapOptions<C> = {},
): Promise<MapResult<ContractValue<C>>[]> {
  const prepared = prepareTasks(tasks, options.contract);
  const read = readCapability(options.capabilities);
  mapConcurrency(options.concurrency);
  const tree = await createTree(options);
  const results = await mapOnTree(
    tree,
    prepared,
    {
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      read,
      origin: 'map',
      ...(options.onResult
        ? { onResult: options.onResult as (index: number, result: MapResult) => void }
        : {}),
    },
    read ? readToolsFactory : undefined,
  );
  return results as MapResult<ContractValue<C>>[];
}
