/**
 * Lenient readers for fields of untrusted trajectory records. A viewer shows
 * what it can: a missing or odd field becomes a default instead of hiding the
 * whole line. Numbers written as strings (older upstream files) are accepted.
 */
import { isRecord } from '../util/safe-json.js';

export type Obj = Record<string, unknown>;

export const isObj: (value: unknown) => value is Obj = isRecord;

export function obj(value: unknown): Obj {
  return isObj(value) ? value : {};
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function str(value: unknown, fallback = ''): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fallback;
}

/** A string field, or undefined when absent or empty. */
export function optStr(value: unknown): string | undefined {
  const text = str(value);
  return text === '' ? undefined : text;
}

/** A finite number, parsing numeric strings; null when there is none. */
export function num(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

export function numOr(value: unknown, fallback: number): number {
  return num(value) ?? fallback;
}

export function bool(value: unknown): boolean {
  return value === true || value === 'true' || value === 'True';
}

/** Any value as display text: strings as is, the rest as compact JSON. */
export function display(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
