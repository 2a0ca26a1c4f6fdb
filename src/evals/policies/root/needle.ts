/** Scripted root for needle: search the context in code, answer from what was printed. */
import { MARK_EXPR, markedLines, type RootAction, type RootTurn } from '../conversation.js';

export const NEEDLE_MARKER = 'current secret passphrase';

const SCAN = `_tag = ${MARK_EXPR}
_hits = []
_at = context.find("passphrase")
while _at != -1 and len(_hits) < 50:
    _start = context.rfind("\\n", 0, _at) + 1
    _end = context.find("\\n", _at)
    _end = len(context) if _end == -1 else _end
    _hits.append(context[_start:_end])
    _at = context.find("passphrase", _end)
print(f"{_tag}SCAN {len(_hits)} lines mention a passphrase")
for _line in _hits:
    print(f"{_tag}HIT {_line}")`;

const RESCAN = `import re
_tag = ${MARK_EXPR}
for _m in re.finditer(r"secret passphrase is:?\\s*(\\S+)", context, re.I):
    print(f"{_tag}HIT secret passphrase is: {_m.group(1)}")`;

/** The passphrase a printed line states as current, skipping expired ones. */
export function passphraseFrom(lines: string[]): string | undefined {
  for (const line of lines) {
    if (/expired/i.test(line)) continue;
    const m = /secret passphrase is:?\s*([^\s"'`]+)/i.exec(line);
    if (m?.[1]) return m[1];
  }
  return undefined;
}

export function needleStep(turn: RootTurn): RootAction {
  const seen = passphraseFrom(turn.observations.flatMap((o) => markedLines(o, 'HIT')));
  if (seen) {
    return { kind: 'final', answer: seen, note: 'The scan printed the current passphrase line.' };
  }
  if (turn.turn === 0) {
    return {
      kind: 'code',
      code: SCAN,
      note: 'The context is too large to read; I will find the lines that mention a passphrase.',
    };
  }
  if (turn.turn === 1) {
    return {
      kind: 'code',
      code: RESCAN,
      note: 'No current passphrase line showed up; searching again with a regex.',
    };
  }
  return { kind: 'final', answer: 'not found', note: 'Two searches printed no passphrase.' };
}
