/** The outcome of parsing untrusted JSON. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Parses JSON text (server, model or file output) without throwing; the error
 * says what was wrong. `T` is the caller's expectation, not checked here.
 */
export function safeParseJson<T = unknown>(text: string): ParseResult<T> {
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
