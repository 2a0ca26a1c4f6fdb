import { safeParseJson } from '../util/safe-json.js';

/**
 * Older upstream files store some structured fields as strings: JSON text, or
 * a Python repr such as `{'model_name': 'gpt-4o'}`. Returns the parsed value
 * when the string is JSON, and the string itself otherwise.
 */
export function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (!/^[[{]/.test(trimmed)) return value;
  const parsed = safeParseJson(trimmed);
  return parsed.ok ? parsed.value : value;
}
