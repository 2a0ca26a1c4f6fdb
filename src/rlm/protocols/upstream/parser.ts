/**
 * Strict parsing of a reply in the upstream layout: ```repl fences (and
 * ```python ones, which fine-tuned checkpoints sometimes write) hold code, and
 * FINAL_VAR(name) / FINAL(answer) count only at the start of a line.
 * Text-form tool calls and other fence languages are ignored on purpose.
 */

/** A finish the reply asked for. */
export type UpstreamFinal =
  | { kind: 'final_var'; variable: string }
  | { kind: 'final'; answer: string };

const REPL_BLOCK = /```(?:repl|python)\s*\n([\s\S]*?)\n```/g;
// `[^\S\n]*`, not `\s*`: spaces that may span lines make every line start rescan the rest.
const FINAL_VAR_START = /^[^\S\n]*FINAL_VAR\(/m;
const FINAL_START = /^[^\S\n]*FINAL\(/m;

/** The code of every ```repl or ```python block, in document order, each stripped of surrounding whitespace. */
export function findReplBlocks(text: string): string[] {
  return [...text.matchAll(REPL_BLOCK)].map((m) => (m[1] ?? '').trim());
}

/** Strip spaces, then one layer of double quotes, then single quotes, as upstream does. */
function cleanVariableName(raw: string): string {
  return raw
    .trim()
    .replace(/^"+|"+$/g, '')
    .replace(/^'+|'+$/g, '');
}

/**
 * The argument of a FINAL( that starts at `open` (the index after the
 * parenthesis): up to the matching parenthesis, or up to the first `)` when
 * they never balance (what upstream v1.0.0 always did).
 */
function finalArgument(text: string, open: number): string | null {
  let depth = 1;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return text.slice(open, i).trim();
  }
  const first = text.indexOf(')', open);
  return first === -1 ? null : text.slice(open, first).trim();
}

/** FINAL_VAR is looked for first, then FINAL; each only at the start of a line. */
export function findUpstreamFinal(text: string): UpstreamFinal | null {
  const v = FINAL_VAR_START.exec(text);
  // The name runs to the first `)`; with none after the first FINAL_VAR( there is none later either.
  const close = v ? text.indexOf(')', v.index + v[0].length) : -1;
  if (v && close !== -1) {
    return {
      kind: 'final_var',
      variable: cleanVariableName(text.slice(v.index + v[0].length, close)),
    };
  }
  const f = FINAL_START.exec(text);
  if (f) {
    const answer = finalArgument(text, f.index + f[0].length);
    if (answer !== null) return { kind: 'final', answer };
  }
  return null;
}
