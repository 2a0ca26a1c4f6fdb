/** Result of parsing untrusted JSON text. */
export type JsonResult = { ok: true; value: unknown } | { ok: false; error: string };

/** Parses JSON without throwing; the error names what went wrong. */
export function parseJson(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
