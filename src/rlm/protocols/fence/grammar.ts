/**
 * The grammar of reply text, in one place: fenced blocks (```repl and
 * ```python run; any other fence is still code, never an answer), text-form
 * `<tool_call>` blocks, and FINAL(...) / FINAL_VAR(name) at the start of a
 * line outside code. The fence protocol, the tools protocol's slip detection
 * and the forced finish's prose fallback all read replies through it.
 * Content is think-free here (the model layer removed `<think>` blocks).
 */

/** One piece of code the reply asks to run. */
export interface CodeBlock {
  code: string;
  /** `fence` for ```repl / ```python, `tool_call` for a text-form tool call. */
  source: 'fence' | 'tool_call';
  /** The fence was closed (or the tool call's end marker was found); false for a cut reply's tail. */
  complete: boolean;
}

/** A finish the reply asked for; whether it is accepted is decided later (finish/judge.ts). */
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

/** A line that opens a fence: ``` then its info string (the language, or nothing). */
const FENCE_LINE = /^[ \t]*```/;
/** The info strings of fences whose code runs. */
const RUNNABLE_FENCE = /^[ \t]*```[ \t]*(?:repl|python|py|python3)[ \t]*$/i;
const FENCE_CLOSE = /^[ \t]*```[ \t]*$/;
const TOOL_CALL_OPEN = /<tool_call>[ \t]*\n?[ \t]*(repl|python|execute_python|FINAL_VAR|FINAL)\b/g;
const CODE_END = /<\/arg_value>|<\/value>|<\/repl>|<\/tool_call>|<\/think>|<\/parameter>/;
const ARG_PREFIX =
  /^\s*(?:<arg_key>\s*code\s*<\/arg_key>\s*)?(?:<arg_value>|<parameter=code>|<code>|<value>)?/;

/** A stretch of text between fences, or one fenced block (its body without the fence lines). */
interface FenceSegment {
  kind: 'prose' | 'fence';
  /** Offset of the segment's first line in the text. */
  start: number;
  lines: string[];
  /** A fence whose closing line was found (an unclosed fence runs to the end). */
  closed: boolean;
}

/**
 * Splits text into prose and fenced blocks, line by line, in one pass. A
 * line opens a fence when `opens` says so; a fence ends at a line holding
 * only ```. Linear in the text: a reply full of unclosed fences costs one pass.
 */
function scanFences(
  text: string,
  opens: (line: string, isLast: boolean) => boolean,
): FenceSegment[] {
  const lines = text.split('\n');
  const out: FenceSegment[] = [];
  let prose: FenceSegment | null = null;
  let fence: FenceSegment | null = null;
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const at = offset;
    offset += line.length + 1;
    if (fence) {
      if (FENCE_CLOSE.test(line)) {
        fence.closed = true;
        fence = null;
      } else {
        fence.lines.push(line);
      }
      continue;
    }
    if (opens(line, i === lines.length - 1)) {
      prose = null;
      fence = { kind: 'fence', start: at, lines: [], closed: false };
      out.push(fence);
      continue;
    }
    if (!prose) {
      prose = { kind: 'prose', start: at, lines: [], closed: false };
      out.push(prose);
    }
    prose.lines.push(line);
  }
  return out;
}

/** Whether a line opens a fence whose code runs (```repl, ```python, ```py, ```python3). */
export function isRunnableFence(line: string): boolean {
  return RUNNABLE_FENCE.test(line);
}

interface Segment {
  kind: 'text' | 'fence' | 'tool_call' | 'tool_final';
  start: number;
  text: string;
  complete?: boolean;
}

/** Parses a (think-free) reply into code blocks and a final candidate. */
export function parseReply(content: string): ParsedReply {
  const segments = segment(content);
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
      final = findFinal(seg.text, { viaToolCall: seg.kind === 'tool_final' });
    }
  }
  return { blocks, final, toolCallFirst };
}

/** Splits text into prose and code segments, in order: runnable fences, then tool calls in prose. */
function segment(text: string): Segment[] {
  const out: Segment[] = [];
  for (const seg of scanFences(text, isRunnableFence)) {
    const body = seg.lines.join('\n');
    if (seg.kind === 'fence') {
      out.push({ kind: 'fence', start: seg.start, text: body, complete: seg.closed });
    } else {
      out.push(...splitToolCalls(body, seg.start));
    }
  }
  return out;
}

/** Finds text-form tool calls inside a prose segment. */
function splitToolCalls(text: string, base: number): Segment[] {
  if (!text.includes('<tool_call>')) return [{ kind: 'text', start: base, text }];
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

/**
 * The first line-start FINAL(...) or FINAL_VAR(...) in a prose segment; inside a
 * text-form tool call (`viaToolCall`) it may follow any whitespace.
 */
export function findFinal(
  text: string,
  { viaToolCall = false }: { viaToolCall?: boolean } = {},
): FinalCandidate | null {
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

/**
 * The reply's prose: every fenced block removed (whatever its language; an
 * unclosed one up to the end, a closed one leaving an empty line), then every
 * text-form tool call and stray tool-call tag.
 */
export function proseOf(text: string): string {
  // A fence opening on the last line has no body: it stays prose (and reads as code later).
  const segments = scanFences(text, (line, isLast) => FENCE_LINE.test(line) && !isLast);
  const kept: string[] = [];
  for (const seg of segments) {
    if (seg.kind === 'prose') kept.push(seg.lines.join('\n'));
    else if (seg.closed) kept.push('');
  }
  return kept
    .join('\n')
    .replace(/<tool_call>[\s\S]*?(<\/tool_call>|$)/g, '')
    .replace(/<\/?(arg_key|arg_value|value|repl)>/g, '');
}

/** Whether a string looks like code rather than an answer: a fence line or a text-form tool call. */
export function looksLikeCode(text: string): boolean {
  return /^[ \t]*```/m.test(text) || /<tool_call>/.test(text);
}
