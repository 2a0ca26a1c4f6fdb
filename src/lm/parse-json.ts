/** Result of parsing untrusted JSON text. */
export type JsonResult<T = unknown> = { ok: true; value: T } | { ok: false; error: string };

/** Parses server or model output without throwing. */
export function parseJson<T = unknown>(text: string): JsonResult<T> {
  try {
    return { ok: true, value: JSON.parse(text) as T };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** True for a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
