/**
 * The tools of a read frame: read_file and search_files under the frame's
 * roots, and nested infer / map calls that descend the frame's own budget
 * (one depth level down) with the tree's model. Arguments come from the
 * model and are checked as hostile input; a bad call is an error result the
 * model sees, never an exception in the host.
 */
import type { ToolCall, ToolSpec } from '../../lm/model.js';
import { isRecord, safeParseJson } from '../../util/safe-json.js';
import type { ContractInput } from '../contract.js';
import type { FrameResult, FrameTools, ToolOutcome, ToolsFactory } from '../frame.js';
import { inferOnTree, mapOnTree, prepareTasks } from '../on-tree.js';
import type { InferenceTree } from '../tree.js';
import type { View } from '../views.js';
import { confinePath, PathRefused } from './confine.js';
import { readFileTool, searchFilesTool } from './files.js';

/** Most tasks one nested map call may fan out, and how many run at once. */
export const NESTED_MAP_TASKS = 32;
export const NESTED_MAP_CONCURRENCY = 4;

const viewItems = {
  type: 'array',
  description:
    'What the frame reads: each item { text, label? } for literal text, or { path, label? } for a file under the allowed folders.',
  items: {
    type: 'object',
    properties: { text: { type: 'string' }, path: { type: 'string' }, label: { type: 'string' } },
  },
};

/** The tool definitions, the same on every request of a read frame. */
export const READ_TOOL_SPECS: ToolSpec[] = [
  {
    name: 'read_file',
    description:
      'Read a file under the allowed folders (at most 20,000 bytes per call; use offset to read on), or list a folder.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Relative to the first allowed folder, or absolute.' },
        offset: { type: 'integer', minimum: 0, description: 'Byte to start at. Default 0.' },
        length: { type: 'integer', minimum: 1, description: 'Bytes to read, at most 20,000.' },
      },
      required: ['path'],
    },
  },
  {
    name: 'search_files',
    description:
      'Search files under a folder for lines matching a JavaScript regular expression; returns file:line: text (at most 100 matches).',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string' },
        path: {
          type: 'string',
          description: 'Folder or file to search. Default: the first allowed folder.',
        },
        ignoreCase: { type: 'boolean' },
      },
      required: ['pattern'],
    },
  },
  {
    name: 'infer',
    description:
      'Ask a sub-question in a fresh frame over the views you give it; it shares your budget. Returns its value (JSON for a schema) or why it is incomplete.',
    parameters: {
      type: 'object',
      properties: {
        task: { type: 'string' },
        views: viewItems,
        schema: {
          type: 'object',
          description: 'JSON Schema of the answer; plain text when absent.',
        },
      },
      required: ['task'],
    },
  },
  {
    name: 'map',
    description: `Ask several sub-questions at once (at most ${NESTED_MAP_TASKS}), each in a fresh frame sharing your budget. Returns one result per task, in order.`,
    parameters: {
      type: 'object',
      properties: {
        tasks: {
          type: 'array',
          items: {
            type: 'object',
            properties: { task: { type: 'string' }, views: viewItems },
            required: ['task'],
          },
        },
        schema: {
          type: 'object',
          description: 'JSON Schema of every answer; plain text when absent.',
        },
      },
      required: ['tasks'],
    },
  },
];

/** Turns the model's view items into views, each file confined to the roots. */
async function modelViews(items: unknown, roots: readonly string[]): Promise<View[]> {
  if (items === undefined) return [];
  if (!Array.isArray(items)) throw new PathRefused('views must be an array');
  const views: View[] = [];
  for (const item of items) {
    if (!isRecord(item)) throw new PathRefused('each view must be { text } or { path }');
    const label = typeof item.label === 'string' && item.label !== '' ? item.label : undefined;
    if (typeof item.text === 'string') {
      views.push(label ? { label, content: item.text } : item.text);
    } else if (item.path !== undefined) {
      const path = await confinePath(item.path, roots);
      views.push(label ? { path, label } : { path });
    } else {
      throw new PathRefused('each view must be { text } or { path }');
    }
  }
  return views;
}

/** What a nested frame's result looks like to the model. */
function describeResult(result: FrameResult): unknown {
  if (result.status === 'ok') return { status: 'ok', value: result.value, traceId: result.traceId };
  if (result.status === 'incomplete') return result.observation;
  return {
    status: 'error',
    error: result.error.message,
    ...(result.traceId ? { traceId: result.traceId } : {}),
  };
}

function childIds(results: FrameResult[]): string[] {
  return results.flatMap((r) => {
    const id = r.status === 'incomplete' ? r.observation.traceId : r.traceId;
    return id ? [id] : [];
  });
}

function schemaArg(value: unknown): ContractInput | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw new PathRefused('schema must be a JSON Schema object');
  return value;
}

async function nestedInfer(
  args: Record<string, unknown>,
  tree: InferenceTree,
): Promise<ToolOutcome> {
  if (typeof args.task !== 'string' || args.task.trim() === '') {
    throw new PathRefused('task must be a non-empty string');
  }
  const views = await modelViews(args.views, tree.settings.readRoots);
  const contract = schemaArg(args.schema);
  const result = await inferOnTree(tree, args.task, {
    views,
    ...(contract ? { contract } : {}),
    origin: 'tool:infer',
  });
  return {
    ok: result.status === 'ok',
    result: JSON.stringify(describeResult(result)),
    childIds: childIds([result]),
  };
}

async function nestedMap(args: Record<string, unknown>, tree: InferenceTree): Promise<ToolOutcome> {
  if (!Array.isArray(args.tasks) || args.tasks.length === 0) {
    throw new PathRefused('tasks must be a non-empty array');
  }
  if (args.tasks.length > NESTED_MAP_TASKS) {
    throw new PathRefused(`at most ${NESTED_MAP_TASKS} tasks per map call`);
  }
  const tasks: { task: string; views: View[] }[] = [];
  for (const item of args.tasks) {
    if (!isRecord(item) || typeof item.task !== 'string') {
      throw new PathRefused('each task must be { task, views? }');
    }
    tasks.push({ task: item.task, views: await modelViews(item.views, tree.settings.readRoots) });
  }
  const prepared = prepareTasks(tasks, schemaArg(args.schema));
  const results = await mapOnTree(tree, prepared, {
    concurrency: NESTED_MAP_CONCURRENCY,
    read: false,
    origin: 'tool:map',
  });
  return {
    ok: results.every((r) => r.status === 'ok'),
    result: JSON.stringify(results.map(describeResult)),
    childIds: childIds(results),
  };
}

/** The read tools of one frame; nested calls run one level down under the frame's budget. */
export const readToolsFactory: ToolsFactory = ({ traceId, budget, tree }): FrameTools => {
  const roots = tree.settings.readRoots;
  const below = (): InferenceTree => tree.child(traceId, budget);
  return {
    specs: READ_TOOL_SPECS,
    async run(call: ToolCall): Promise<ToolOutcome> {
      const parsed = safeParseJson(call.arguments === '' ? '{}' : call.arguments);
      if (!parsed.ok || !isRecord(parsed.value)) {
        return { ok: false, result: `The arguments of ${call.name} are not a JSON object.` };
      }
      const args = parsed.value;
      try {
        switch (call.name) {
          case 'read_file':
            return { ok: true, result: await readFileTool(args, roots) };
          case 'search_files':
            return { ok: true, result: await searchFilesTool(args, roots) };
          case 'infer':
            return await nestedInfer(args, below());
          case 'map':
            return await nestedMap(args, below());
          default:
            return {
              ok: false,
              result: `There is no tool ${JSON.stringify(call.name)}; the tools are read_file, search_files, infer and map.`,
            };
        }
      } catch (error) {
        // Refusals, bad schemas, unreadable views: the model sees why and may try again.
        return {
          ok: false,
          result: `${call.name} refused: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    },
  };
};
