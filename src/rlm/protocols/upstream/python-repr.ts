/**
 * Python's `repr` for the few values the upstream formats print (strings,
 * integers and lists of them), so messages match what CPython would write.
 */

function escapeChar(ch: string, quote: string): string {
  if (ch === '\\') return '\\\\';
  if (ch === quote) return `\\${quote}`;
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  const code = ch.codePointAt(0) ?? 0;
  // C0/C1 controls and DEL are not printable in Python; lone surrogates neither.
  if (code < 0x20 || (code >= 0x7f && code <= 0xa0) || code === 0xad) {
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : ch;
  }
  if (code >= 0xd800 && code <= 0xdfff) return `\\u${code.toString(16)}`;
  if (code === 0x2028 || code === 0x2029) return `\\u${code.toString(16)}`;
  return ch;
}

/** `repr(s)` for a Python str: single quotes unless the text has a ' and no ". */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) out += escapeChar(ch, quote);
  return out + quote;
}

/** `repr(list)` of strings or integers, e.g. `['a', 'b']` or `[1, 2]`. */
export function pyListRepr(items: readonly (string | number)[]): string {
  const parts = items.map((x) => (typeof x === 'number' ? String(x) : pyStrRepr(x)));
  return `[${parts.join(', ')}]`;
}

/** Python's `len` of a str: code points, not UTF-16 units. */
export function pyLen(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Python's `s[:n]`: the first n code points. */
export function pyHead(s: string, n: number): string {
  if (s.length <= n) return s;
  let units = 0;
  let count = 0;
  for (const ch of s) {
    if (count === n) break;
    units += ch.length;
    count++;
  }
  return s.slice(0, units);
}
