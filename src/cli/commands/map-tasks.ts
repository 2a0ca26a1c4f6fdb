/**
 * Reading `reclamo map --tasks FILE.jsonl`: one task per line, a JSON string
 * or `{ "task": ..., "views": [...], "schema": ... }`. A view is a file path
 * (relative to the current folder), `{ "text": ..., "label"? }` or
 * `{ "label": ..., "content": ... }`; `schema` is a JSON Schema or the path of
 * one. Every problem is found before any model call, named by its line.
 */
import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../../errors.js';
import type { JsonSchema } from '../../infer/contract.js';
import type { MapTask } from '../../infer/on-tree.js';
import type { View } from '../../infer/views.js';
import { fsReason } from '../../util/fs-reason.js';
import { isRecord, safeParseJson } from '../../util/safe-json.js';
import { readSchemaFile } from './inference-flags.js';

function lineError(file: string, line: number, what: string): ConfigError {
  return new ConfigError(`--tasks ${file}, line ${line}: ${what}`, file);
}

function checkFile(path: string, maxBytes: number, file: string, line: number): void {
  let size: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) throw lineError(file, line, `view ${path} is not a file.`);
    size = info.size;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw lineError(file, line, `view ${path} cannot be read: ${fsReason(error)}.`);
  }
  if (size > maxBytes) {
    throw lineError(
      file,
      line,
      `view ${path} is ${size} bytes, over the limit of ${maxBytes} (--max-view-bytes).`,
    );
  }
}

function viewOf(item: unknown, maxBytes: number, file: string, line: number): View {
  if (typeof item === 'string') {
    checkFile(item, maxBytes, file, line);
    return { path: item };
  }
  if (isRecord(item)) {
    const label = typeof item.label === 'string' ? item.label : undefined;
    if (typeof item.text === 'string') return label ? { label, content: item.text } : item.text;
    if (typeof item.content === 'string' && label) return { label, content: item.content };
    if (typeof item.path === 'string') {
      checkFile(item.path, maxBytes, file, line);
      return label ? { path: item.path, label } : { path: item.path };
    }
  }
  throw lineError(
    file,
    line,
    'each view is a file path, { "text": ... } or { "label": ..., "content": ... }.',
  );
}

/** The tasks of a JSONL file, checked. */
export function readTasksFile(file: string, maxBytes: number): MapTask[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`--tasks ${file}: cannot read it: ${fsReason(error)}.`, file);
  }
  const tasks: MapTask[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = index + 1;
    if (raw.trim() === '') continue;
    const parsed = safeParseJson(raw);
    if (!parsed.ok) throw lineError(file, line, `not JSON (${parsed.error}).`);
    const value = parsed.value;
    if (typeof value === 'string' && value.trim() !== '') {
      tasks.push(value);
      continue;
    }
    if (!isRecord(value) || typeof value.task !== 'string' || value.task.trim() === '') {
      throw lineError(
        file,
        line,
        'expected a task: a JSON string, or { "task": "...", "views": [...], "schema": ... }.',
      );
    }
    const views = value.views === undefined ? [] : value.views;
    if (!Array.isArray(views)) throw lineError(file, line, '"views" must be an array.');
    let schema: JsonSchema | undefined;
    if (typeof value.schema === 'string')
      schema = readSchemaFile(value.schema, `--tasks ${file}, line ${line}: schema`);
    else if (value.schema !== undefined) schema = value.schema as JsonSchema;
    tasks.push({
      task: value.task,
      views: views.map((v) => viewOf(v, maxBytes, file, line)),
      ...(schema === undefined ? {} : { contract: schema }),
    });
  }
  if (tasks.length === 0)
    throw new ConfigError(`--tasks ${file}: no tasks in it (one JSON task per line).`, file);
  return tasks;
}
