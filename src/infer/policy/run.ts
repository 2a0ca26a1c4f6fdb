/**
 * `runPolicy`: drives one task through a policy inside one budget subtree:
 * decompose, fan the subtasks out one depth level down, synthesize under the
 * caller's contract. The run writes a trace of its own (origin
 * `policy:<name>`) whose children are the subtask and synthesis frames.
 */
import { ConfigError } from '../../errors.js';
import { type ContractInput, type ContractValue, resolveContract } from '../contract.js';
import { PartialResultError } from '../errors.js';
import type { FrameResult } from '../frame.js';
import {
  inferOnTree,
  type MapResult,
  mapOnTree,
  prepareTasks,
  requireTask,
  type Traced,
  unwrap,
} from '../on-tree.js';
import { createTree, type TreeOptions } from '../options.js';
import { TraceWriter } from '../trace/writer.js';
import { InferenceTree } from '../tree.js';
import { materializeViews, type View, viewRecord } from '../views.js';
import type { Policy, PolicyContext, PolicyTask } from './policy.js';
import { defaultPolicies, type PolicyRegistry } from './registry.js';

/** Options of `runPolicy`. */
export interface RunPolicyOptions<C extends ContractInput = 'text'> extends TreeOptions {
  /** A registered policy's name, or a policy. Default `'direct'`. */
  policy?: string | Policy;
  /** The contract of the final value. Default `'text'`. */
  contract?: C;
  /** Views of the task (handed to `decompose`, and to the frame of a direct run). */
  views?: readonly View[];
  /** Where names are looked up. Default: the registry `registerPolicy` adds to. */
  registry?: PolicyRegistry;
  /** Subtask frames in flight at once. Default 8. */
  concurrency?: number;
}

function resolvePolicy(choice: string | Policy | undefined, registry: PolicyRegistry): Policy {
  if (choice === undefined) return registry.get('direct');
  if (typeof choice === 'string') return registry.get(choice);
  if (typeof choice?.decompose !== 'function' || typeof choice.name !== 'string') {
    throw new ConfigError(
      'runPolicy: policy must be a registered name or { name, decompose, synthesize? }.',
      undefined,
      'policy',
    );
  }
  return choice;
}

/** The default synthesis views: one per subtask, with its task and how it ended. */
function resultViews(tasks: readonly { task: string }[], results: readonly MapResult[]): View[] {
  return results.map((result, index) => {
    const task = tasks[index]?.task ?? '';
    const body =
      result.status === 'ok'
        ? { task, status: 'ok', value: result.value }
        : result.status === 'incomplete'
          ? {
              task,
              status: 'incomplete',
              exhausted: result.observation.exhausted,
              evidence: result.observation.recent,
            }
          : { task, status: 'error', error: result.error.message };
    return {
      label: `subtask ${index + 1} (${result.status})`,
      content: JSON.stringify(body, null, 1),
    };
  });
}

function idOf(result: FrameResult): string | undefined {
  return result.status === 'incomplete' ? result.observation.traceId : result.traceId;
}

/** Runs a policy on an existing tree level; resolves with how it ended (never rejects for the budget). */
export async function runPolicyOnTree(
  tree: InferenceTree,
  policy: Policy,
  task: PolicyTask,
  contractInput: ContractInput,
  concurrency?: number,
): Promise<FrameResult> {
  const { settings } = tree;
  const contract = resolveContract(contractInput);
  const views = await materializeViews(task.views, settings.maxViewBytes);
  const traceId = settings.generateId();
  const node = tree.budget.branch();
  const writer = new TraceWriter(settings.logDir, traceId, settings.now);
  const started = settings.clock();
  const origin = `policy:${policy.name}`;
  const link = tree.parentId === undefined ? {} : { parentId: tree.parentId };
  writer.write({
    type: 'frame',
    traceId,
    ...link,
    origin,
    task: task.task,
    views: views.map(viewRecord),
    contract:
      contract.kind === 'schema'
        ? { kind: 'schema', schema: contract.schema ?? true }
        : { kind: 'text' },
    model: { id: settings.model.modelId, endpoint: settings.model.endpoint },
    parameters: {
      ...(settings.effort === undefined ? {} : { effort: settings.effort }),
      capabilities: 'none',
    },
    budget: node.remaining(),
  });
  tree.emit({
    type: 'frame_start',
    traceId,
    ...link,
    elapsedMs: tree.elapsedMs(),
    depth: node.depth,
    origin,
    budget: node.remaining(),
  });
  const level = new InferenceTree(settings, node, traceId);
  const below = new InferenceTree(settings, node.child(), traceId);
  const children = (results: readonly FrameResult[], from: string): void => {
    for (const result of results) {
      const id = idOf(result);
      if (id) writer.write({ type: 'child', traceId: id, origin: from });
    }
  };
  const context: PolicyContext = {
    contract: contractInput,
    budget: node,
    async infer(subtask, options = {}) {
      const result = await inferOnTree(level, requireTask(subtask, 'policy infer'), {
        ...options,
        origin: `${origin}:infer`,
      });
      children([result], `${origin}:infer`);
      return unwrap(result).value;
    },
    async map(tasks, options = {}) {
      const results = await mapOnTree(level, prepareTasks(tasks, options.contract), {
        ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
        read: false,
        origin: `${origin}:map`,
      });
      children(results, `${origin}:map`);
      return results;
    },
  };

  let result: FrameResult;
  try {
    result = await decomposeAndSynthesize(policy, task, context, {
      level,
      below,
      contractInput,
      concurrency,
      origin,
      children,
    });
  } catch (error) {
    result = PartialResultError.isInstance(error)
      ? { status: 'incomplete', observation: error.observation }
      : {
          status: 'error',
          error: error instanceof Error ? error : new Error(String(error)),
          traceId,
        };
  }
  if (result.status === 'ok') result = { ...result, traceId };
  writer.write({
    type: 'outcome',
    status: result.status,
    ...(result.status === 'ok' ? { value: result.value } : {}),
    ...(result.status === 'incomplete' ? { observation: result.observation } : {}),
    ...(result.status === 'error'
      ? { error: { name: result.error.name, message: result.error.message } }
      : {}),
    requests: 0,
    usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
    spent: node.spent(),
    budget: node.remaining(),
    elapsedMs: Math.round(settings.clock() - started),
  });
  await writer.close();
  tree.emit({
    type: 'frame_end',
    traceId,
    ...link,
    elapsedMs: tree.elapsedMs(),
    status: result.status,
    requests: 0,
    budget: node.remaining(),
  });
  return result;
}

interface Levels {
  level: InferenceTree;
  below: InferenceTree;
  contractInput: ContractInput;
  concurrency: number | undefined;
  origin: string;
  children: (results: readonly FrameResult[], from: string) => void;
}

async function decomposeAndSynthesize(
  policy: Policy,
  task: PolicyTask,
  context: PolicyContext,
  levels: Levels,
): Promise<FrameResult> {
  const { level, below, contractInput, origin, children } = levels;
  const subtasks = await policy.decompose(task, context);
  if (subtasks === null) {
    const direct = await inferOnTree(level, task.task, {
      views: task.views,
      contract: contractInput,
      origin: 'direct',
    });
    children([direct], 'direct');
    return direct;
  }
  const prepared = prepareTasks(subtasks, undefined);
  const results = await mapOnTree(below, prepared, {
    ...(levels.concurrency === undefined ? {} : { concurrency: levels.concurrency }),
    read: false,
    origin,
  });
  children(results, origin);
  if (policy.synthesize) {
    const value = await policy.synthesize(task, results, context);
    const contract = resolveContract(contractInput);
    const checked =
      contract.kind === 'text' && typeof value !== 'string'
        ? { ok: false as const, errors: ['the text contract needs a string'] }
        : contract.check(value);
    if (!checked.ok) {
      throw new ConfigError(
        `Policy ${policy.name}: synthesize returned a value that does not meet the contract (${checked.errors.slice(0, 3).join('; ')}).`,
        undefined,
        'synthesize',
      );
    }
    return { status: 'ok', value: checked.value, traceId: '' };
  }
  const synthesis = await inferOnTree(level, task.task, {
    views: resultViews(prepared, results),
    contract: contractInput,
    origin: 'synthesize',
  });
  children([synthesis], 'synthesize');
  return synthesis;
}

/** Like `runPolicy`, with the policy run's trace id beside the value. */
export async function runPolicyTraced<C extends ContractInput = 'text'>(
  task: string,
  options: RunPolicyOptions<C> = {},
): Promise<Traced<ContractValue<C>>> {
  requireTask(task, 'runPolicy');
  const contractInput: ContractInput = options.contract ?? 'text';
  resolveContract(contractInput);
  const policy = resolvePolicy(options.policy, options.registry ?? defaultPolicies);
  const tree = await createTree(options);
  const result = await runPolicyOnTree(
    tree,
    policy,
    { task, views: options.views ?? [] },
    contractInput,
    options.concurrency,
  );
  return unwrap(result);
}

/**
 * Drives `task` through a policy (default `direct`): decompose, map the
 * subtasks one level down, synthesize under `contract`, all in one budget
 * subtree. Rejects like `infer`.
 */
export async function runPolicy<C extends ContractInput = 'text'>(
  task: string,
  options: RunPolicyOptions<C> = {},
): Promise<ContractValue<C>> {
  return (await runPolicyTraced(task, options)).value;
}
