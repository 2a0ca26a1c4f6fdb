/**
 * Turns schema issues into one ConfigError naming the file, the key and the
 * fix. Values from the file are never echoed: any of them could be a key.
 */
import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import { keyPath, tableOf } from './key-path.js';
import {
  FILE_KEYS,
  INTEGER_KEYS,
  PROFILE_KEYS,
  ROLE_KEYS,
  RUN_KEYS,
  SAMPLING_KEYS,
} from './schema.js';
import { closest } from './suggest.js';

/** Builds the ConfigError for a file whose content failed the schema. */
export function issuesToError(
  issues: readonly z.core.$ZodIssue[],
  data: unknown,
  file: string,
): ConfigError {
  const lines = issues.flatMap((issue) => describeIssue(issue, data));
  const first = issues[0];
  const firstKey = first ? keyPath(firstKeyOf(first)) : undefined;
  const message =
    lines.length === 1
      ? `${file}: ${lines[0]}`
      : `${file} has ${lines.length} problems:\n${lines.map((line) => `  - ${line}`).join('\n')}`;
  return new ConfigError(message, file, firstKey);
}

function firstKeyOf(issue: z.core.$ZodIssue): PropertyKey[] {
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) {
    return [...issue.path, issue.keys[0]];
  }
  return issue.path;
}

function describeIssue(issue: z.core.$ZodIssue, data: unknown): string[] {
  const key = `\`${keyPath(issue.path)}\``;
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((name) => unknownKey(issue.path, name));
    case 'invalid_type': {
      const got = typeName(valueAt(data, issue.path));
      const last = issue.path[issue.path.length - 1];
      const integer = issue.expected === 'number' && INTEGER_KEYS.has(String(last));
      const want = expectedName(integer ? 'int' : issue.expected);
      if (got === 'missing') return [`${key} is required. Fix: add it as ${want}.`];
      return [`${key} must be ${want}, but the file gives ${got}. Fix: write ${want} there.`];
    }
    case 'invalid_value':
      return [
        `${key} has a value that is not allowed. Fix: use one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`,
      ];
    case 'too_small':
      return [
        `${key} is too small. Fix: use a value ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}.`,
      ];
    case 'too_big':
      return [
        `${key} is too big. Fix: use a value ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}.`,
      ];
    default:
      return [`${key} ${issue.message}.`];
  }
}

function unknownKey(table: readonly PropertyKey[], name: string): string {
  const where = tableOf(table);
  const head = `unknown key \`${name}\` in ${where}.`;
  const level = levelOf(table);
  if (level === 'role' && RUN_KEYS.includes(name)) {
    return `\`${name}\` is a run setting and cannot go in ${where}. Fix: move it to ${tableOf(table.slice(0, -1))}.`;
  }
  if (level === 'file') {
    return `${head} Fix: put profiles under [profiles.NAME], e.g. [profiles.${keyPath([name])}].`;
  }
  const valid = keysFor(level);
  const guess = closest(name, valid);
  if (guess) return `${head} Did you mean \`${guess}\`?`;
  return `${head} Valid keys there: ${valid.join(', ')}.`;
}

type Level = 'file' | 'profile' | 'role' | 'sampling';

function levelOf(path: readonly PropertyKey[]): Level {
  if (path.length === 0) return 'file';
  if (path[path.length - 1] === 'sampling') return 'sampling';
  if (path.length >= 3) return 'role';
  return 'profile';
}

function keysFor(level: Level): readonly string[] {
  switch (level) {
    case 'file':
      return FILE_KEYS;
    case 'profile':
      return PROFILE_KEYS;
    case 'role':
      return ROLE_KEYS;
    case 'sampling':
      return SAMPLING_KEYS;
  }
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/** The type of a TOML value, in TOML's words. */
function typeName(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'bigint') return 'an integer';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a float';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a date';
  return 'a table';
}

function expectedName(expected: string): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string (in quotes)';
    case 'boolean':
      return 'true or false';
    case 'object':
    case 'record':
      return 'a table';
    default:
      return `a ${expected}`;
  }
}
