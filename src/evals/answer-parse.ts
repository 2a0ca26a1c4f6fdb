/**
 * Lenient readers of model answers for scorers: answers arrive as free text,
 * so these pull out the part a scorer needs without ever throwing.
 */
import { isRecord, type ParseResult, safeParseJson } from '../util/safe-json.js';

/**
 * The first JSON object in the text: the whole text when it parses, else the
 * span from the first `{` to the last `}`. Python dict reprs (single quotes)
 * are accepted too, since a FINAL_VAR of a dict arrives that way.
 */
export function extractJsonObject(text: string): ParseResult<Record<string, unknown>> {
  const candidates = [text.trim()];
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start >= 0 && end > start) {
    const span = text.slice(start, end + 1);
    candidates.push(span, pythonReprToJson(span));
  }
  for (const candidate of candidates) {
    const parsed = safeParseJson(candidate);
    if (parsed.ok && isRecord(parsed.value)) return { ok: true, value: parsed.value };
  }
  return { ok: false, error: 'no JSON object found in the answer' };
}

/** Best-effort conversion of a simple Python literal (quotes, True/False/None) to JSON. */
function pythonReprToJson(text: string): string {
  return text
    .replace(/'([^'\\]*(?:\\.[^'\\]*)*)'/g, (_m, inner: string) => JSON.stringify(inner))
    .replace(/\bTrue\b/g, 'true')
    .replace(/\bFalse\b/g, 'false')
    .replace(/\bNone\b/g, 'null');
}

/** Trim whitespace, wrapping quotes or backticks and trailing sentence punctuation. */
export function normalizeShortAnswer(text: string): string {
  let out = text.trim();
  for (;;) {
    const before = out;
    out = out.replace(/^["'`*]+|["'`*]+$/g, '').trim();
    out = out.replace(/[.!;,]+$/, '').trim();
    if (out === before) return out;
  }
}
