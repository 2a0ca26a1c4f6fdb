/**
 * Python the scripted root writes, shared by its task scripts: labelling
 * items in batches through llm_query_batched, and reading the four log
 * formats of the nested task.
 */
import { MARK_EXPR, pyString } from './conversation.js';
import { LABEL_INSTRUCTION } from './reader.js';

/** Largest batch the scripted root sends in one sub-call, in characters. */
export const BATCH_CHARS = 12_000;

/** Defines `_tag`, `_CATS` and `_label_all(items) -> (labels, prompts_sent)`. */
export function labelHelpers(): string {
  return `import re, json
_tag = ${MARK_EXPR}
_CATS = ["billing", "shipping", "account", "defect", "cancellation"]
_INSTR = ${pyString(LABEL_INSTRUCTION)}

def _label_all(items, limit=${BATCH_CHARS}):
    batches, cur, size = [], [], 0
    for item_id, text in items:
        line = f"[{item_id}] {text}"
        if cur and size + len(line) > limit:
            batches.append(cur)
            cur, size = [], 0
        cur.append(line)
        size += len(line) + 1
    if cur:
        batches.append(cur)
    prompts = [_INSTR + "\\n\\n" + "\\n".join(b) for b in batches]
    replies = llm_query_batched(prompts) if prompts else []
    labels = {}
    for reply in replies:
        for line in str(reply).splitlines():
            m = re.match(r"^\\s*\\[?([^\\]\\s:]+)\\]?\\s*:\\s*([A-Za-z]+)", line)
            if m and m.group(2).lower() in _CATS:
                labels[m.group(1)] = m.group(2).lower()
    return labels, len(prompts)
`;
}

/** Defines `_survivors(fmt, text) -> [(ticket_id, complaint)]` for the four log formats. */
export function logReplayHelpers(): string {
  return `def _events(fmt, text):
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if fmt == "pipes":
            parts = [p.strip() for p in line.split("|", 3)]
            if len(parts) >= 3:
                out.append((parts[1].lower(), parts[2].replace("TK-", ""), parts[3] if len(parts) > 3 else ""))
        elif fmt == "bracket":
            m = re.match(r'^\\[[^\\]]*\\] ticket (\\d+) (opened|closed|reopened)(?:: "(.*)")?$', line)
            if m:
                kind = {"opened": "open", "closed": "close", "reopened": "reopen"}[m.group(2)]
                out.append((kind, m.group(1), m.group(3) or ""))
        elif fmt == "json":
            o = json.loads(line)
            out.append((o["event"], str(o["id"]), o.get("body", "")))
        elif fmt == "semicolons":
            tid, kind, body = line.split(";", 2)
            out.append(({"o": "open", "c": "close", "r": "reopen"}[kind], tid, body))
    return out

def _survivors(fmt, text):
    state, body = {}, {}
    for kind, tid, complaint in _events(fmt, text):
        if kind == "open":
            body[tid] = complaint
            state[tid] = True
        elif kind == "close":
            state[tid] = False
        elif kind == "reopen":
            state[tid] = True
    return [(tid, body.get(tid, "")) for tid, is_open in state.items() if is_open]
`;
}

/** Recognise a log line's format from its shape, as the root does after printing heads. */
export function detectLogFormat(line: string): string | undefined {
  const l = line.trim();
  if (/^\d{4}-\d\d-\d\d \d\d:\d\d \| (OPEN|CLOSE|REOPEN) \| TK-\d+ \|/.test(l)) return 'pipes';
  if (/^\[\d\d:\d\d:\d\d\] ticket \d+ (opened|closed|reopened)/.test(l)) return 'bracket';
  if (/^\{.*"event"\s*:/.test(l)) return 'json';
  if (/^\d+;[ocr];/.test(l)) return 'semicolons';
  return undefined;
}
