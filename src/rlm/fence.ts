/**
 * Parsing a fence-protocol reply: code in ```repl / ```python fences,
 * text-form `<tool_call>` blocks, and FINAL(...) / FINAL_VAR(name) lines.
 */

/** One piece of code the reply asks to run. */
export interface CodeBlock {
  code: string;
  /** `fence` for ```repl / ```python, `tool_call` for a text-form tool call. */
  source: 'fence' | 'tool_call';
  /** The fence was closed (or the tool call's end marker was found); false for a cut reply's tail. */
  complete: boolean;
}

/** A finish the reply asked for; whether it is accepted is decided later (finish.ts). */
export type FinalCandidate =
  | { kind: 'final'; answer: string; viaToolCall: boolean }
  | { kind: 'final_var'; variable: string; viaToolCall: boolean };

export interface ParsedReply {
  /** Code to run, in document order. */
  blocks: CodeBlock[];
  /** The first FINAL / FINAL_VAR outside code, or null. */
  final: FinalCandidate | null;
  /** The reply opened with a text-form tool call, so everything after that call was dropped. */
  toolCallFirst: boolean;
}

export interface ParseOptions {
  /** Only ```repl fences and line-start FINAL (the upstream protocol): no tool-call text, no ```python. */
  strict?: boolean;
}

const FENCE_OPEN = /^[ \t]*```[ \t]*(repl|python|py|python3)[ \t]*$/i;
const FENCE_CLOSE = /^[ \t]*```[ \t]*$/;
const TOOL_CALL_OPEN = /<tool_call>[ \t]*\n?[ \t]*(repl|python|execute_python|FINAL_VAR|FINAL)\b/g;
const CODE_END = /<\/arg_value>|<\/value>|<\/repl>|<\/tool_call>|<\/think>|<\/parameter>/;
const ARG_PREFIX =
  /^\s*(?:<arg_key>\s*code\s*<\/arg_key>\s*)?(?:<arg_value>|<parameter=code>|<code>|<value>)?/;

/** Removes `<think>...</think>` blocks (and an unclosed trailing one) from reply text. */
export function stripThink(text: string): string {
  if (!text.includes('<think')) return text;
  // One pass with indexOf: a lazy regex rescans to the end from every unclosed <think>.
  let out = '';
  let at = 0;
  for (;;) {
    const open = text.indexOf('<think>', at);
    if (open === -1) return out + text.slice(at);
    out += text.slice(at, open);
    const close = text.indexOf('</think>', open + 7);
    if (close === -1) return out;
    at = close + 8;
  }
}

interface Segment {
  kind: 'text' | 'fence' | 'tool_call' | 'tool_final';
  start: number;
  text: string;
  complete?: boolean;
}

/** Parses a reply into code blocks and a final candidate. */
export function parseReply(content: string, options: ParseOptions = {}): ParsedReply {
  const text = stripThink(content);
  const segments = segment(text, options.strict === true);
  const firstCode = segments.find((s) => s.kind !== 'text');
  const toolCallFirst = firstCode !== undefined && firstCode.kind !== 'fence';
  const used = toolCallFirst ? [firstCode] : segments;
  const blocks: CodeBlock[] = [];
  let final: FinalCandidate | null = null;
  for (const seg of used) {
    if (seg.kind === 'fence' || seg.kind === 'tool_call') {
      if (seg.text.trim() !== '') {
        blocks.push({
          code: seg.text,
          source: seg.kind === 'fence' ? 'fence' : 'tool_call',
          complete: seg.complete !== false,
        });
      }
    } else if (final === null) {
      final = findFinal(seg.text, seg.kind === 'tool_final');
    }
  }
  return { blocks, final, toolCallFirst };
}

/** Splits text into prose and code segments, in order. */
function segment(text: string, strict: boolean): Segment[] {
  const out: Segment[] = [];
  const lines = text.split('\n');
  let prose: string[] = [];
  let proseStart = 0;
  let offset = 0;
  let i = 0;
  const flushProse = () => {
    if (prose.length > 0) out.push(...splitToolCalls(prose.join('\n'), proseStart, strict));
    prose = [];
  };
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const open = FENCE_OPEN.exec(line);
    if (open && (!strict || open[1]?.toLowerCase() === 'repl')) {
      flushProse();
      const start = offset;
      const body: string[] = [];
      offset += line.length + 1;
      i += 1;
      while (i < lines.length && !FENCE_CLOSE.test(lines[i] ?? '')) {
        body.push(lines[i] ?? '');
        offset += (lines[i] ?? '').length + 1;
        i += 1;
      }
      // Skip the closing fence (an unclosed fence runs to the end of the reply).
      const closed = i < lines.length;
      if (closed) {
        offset += (lines[i] ?? '').length + 1;
        i += 1;
      }
      out.push({ kind: 'fence', start, text: body.join('\n'), complete: closed });
      proseStart = offset;
      continue;
    }
    if (prose.length === 0) proseStart = offset;
    prose.push(line);
    offset += line.length + 1;
    i += 1;
  }
  flushProse();
  return out;
}

/** Finds text-form tool calls inside a prose segment. */
function splitToolCalls(text: string, base: number, strict: boolean): Segment[] {
  if (strict || !text.includes('<tool_call>')) return [{ kind: 'text', start: base, text }];
  const out: Segment[] = [];
  let cursor = 0;
  TOOL_CALL_OPEN.lastIndex = 0;
  for (let m = TOOL_CALL_OPEN.exec(text); m !== null; m = TOOL_CALL_OPEN.exec(text)) {
    if (m.index < cursor) continue;
    if (m.index > cursor)
      out.push({ kind: 'text', start: base + cursor, text: text.slice(cursor, m.index) });
    const name = m[1] ?? '';
    if (name === 'FINAL' || name === 'FINAL_VAR') {
      const bodyStart = m.index + m[0].length - name.length;
      const end = text.indexOf('</tool_call>', bodyStart);
      const stop = end === -1 ? text.length : end;
      out.push({ kind: 'tool_final', start: base + bodyStart, text: text.slice(bodyStart, stop) });
      cursor = end === -1 ? text.length : end + '</tool_call>'.length;
    } else {
      const after = m.index + m[0].length;
      const rest = text.slice(after);
      const prefix = ARG_PREFIX.exec(rest)?.[0] ?? '';
      const body = rest.slice(prefix.length);
      const endMatch = CODE_END.exec(body);
      const code = endMatch ? body.slice(0, endMatch.index) : body;
      out.push({
        kind: 'tool_call',
        start: base + after,
        text: dedentCode(code),
        complete: endMatch !== null,
      });
      if (!endMatch) {
        cursor = text.length;
      } else {
        // Trailing arguments (e.g. a description) up to </tool_call> are ignored.
        const codeEnd = after + prefix.length + endMatch.index;
        const close = text.indexOf('</tool_call>', codeEnd);
        cursor = close === -1 ? codeEnd + endMatch[0].length : close + '</tool_call>'.length;
      }
    }
    TOOL_CALL_OPEN.lastIndex = cursor;
  }
  if (cursor < text.length)
    out.push({ kind: 'text', start: base + cursor, text: text.slice(cursor) });
  return out;
}

function dedentCode(code: string): string {
  return code.replace(/^\s*\n/, '').replace(/\s+$/, '');
}

const FINAL_START = /^[ \t]*(FINAL_VAR|FINAL)[ \t]*\(/gm;

/** The first line-start FINAL(...) or FINAL_VAR(...) in a prose segment. */
export function findFinal(text: string, viaToolCall = false): FinalCandidate | null {
  if (!text.includes('FINAL')) return null;
  const re = viaToolCall ? /^\s*(FINAL_VAR|FINAL)\s*\(/g : FINAL_START;
  re.lastIndex = 0;
  const m = re.exec(text);
  if (!m) return null;
  const inner = balancedInner(text, m.index + m[0].length);
  if (m[1] === 'FINAL_VAR') {
    const variable = normaliseVariable(inner);
    return variable === '' ? null : { kind: 'final_var', variable, viaToolCall };
  }
  return { kind: 'final', answer: unquote(inner.trim()), viaToolCall };
}

/** `"Paris"` -> `Paris`: one pair of enclosing quotes with no inner quote of the same kind. */
function unquote(answer: string): string {
  const m = /^(['"])([\s\S]*)\1$/.exec(answer);
  return m && !(m[2] ?? '').includes(m[1] ?? '') ? (m[2] ?? '') : answer;
}

/**
 * The text between an opening parenthesis (just before `from`) and its
 * balancing close. An unbalanced FINAL (a cut reply, or a stray parenthesis
 * in prose) takes the rest of the text, less one trailing `)`.
 */
function balancedInner(text: string, from: number): string {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41 && --depth === 0) return text.slice(from, i);
  }
  return text.slice(from).replace(/\)\s*$/, '');
}

/** `name`, `"name"`, or `answer['content']` as written inside FINAL_VAR(...). */
function normaliseVariable(raw: string): string {
  const v = raw.trim();
  const quoted = /^(['"`])([\s\S]*)\1$/.exec(v);
  return (quoted ? (quoted[2] ?? '') : v).trim();
}
