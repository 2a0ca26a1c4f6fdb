/** The outcome of parsing untrusted JSON. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Parses JSON text without throwing; the error says what was wrong. */
export function safeParseJson(text: string): ParseResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
