/**
 * The size bound on every text field a trajectory line holds. A hostile model
 * or server can send a reply of any size; written whole, and again in each
 * record that quotes it, it made trajectories of hundreds of megabytes that no
 * reader could load. A field over the bound is stored cut, and the line's
 * `cutFields` gives its full length and SHA-256, keyed by the field's path.
 */
import { createHash } from 'node:crypto';

/** Characters a trajectory field keeps (the run's answer has its own, larger bound). */
export const TRACE_FIELD_CHARS = 1_000_000;

/** What a cut field was before it was cut. */
export interface CutField {
  /** Its full length in characters. */
  chars: number;
  /** SHA-256 (hex) of its full UTF-8 text. */
  sha256: string;
}

/** Field paths (dot-separated, array items by index) to their full size. */
export type CutFields = Record<string, CutField>;

/**
 * `value` with every string longer than its bound cut to it, and the paths of
 * the cut strings with their full size and hash (empty when nothing was cut).
 * `bounds` raises or lowers the bound for named top-level fields.
 */
export function boundFields<T>(
  value: T,
  limit = TRACE_FIELD_CHARS,
  bounds: Record<string, number> = {},
): { value: T; cut: CutFields } {
  const cut: CutFields = {};
  const visit = (v: unknown, path: string, max: number): unknown => {
    if (typeof v === 'string') {
      if (v.length <= max) return v;
      cut[path] = { chars: v.length, sha256: sha256(v) };
      return v.slice(0, max);
    }
    if (Array.isArray(v)) return v.map((item, i) => visit(item, join(path, String(i)), max));
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v)) {
        const bound = path === '' ? (bounds[key] ?? max) : max;
        out[key] = visit(item, join(path, key), bound);
      }
      return out;
    }
    return v;
  };
  return { value: visit(value, '', limit) as T, cut };
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
