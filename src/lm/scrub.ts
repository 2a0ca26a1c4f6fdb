/**
 * Removes secrets from text that may reach a log, an error or a file. Known
 * keys are replaced wherever they appear; bearer tokens and key-like headers
 * are masked even when the key is not known.
 */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('[redacted]');
  }
  return out
    .replace(/(Bearer\s+)[^\s"',]+/gi, '$1[redacted]')
    .replace(/((?:x-api-key|api[_-]?key)["']?\s*[:=]\s*["']?)[^\s"',]+/gi, '$1[redacted]');
}

/** Shortens text for an error message. */
export function clip(text: string, max = 400): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} chars)`;
}
