/**
 * Scripted root for oolong-lite: split the tickets, label them in batches
 * through llm_query_batched, count in Python, answer with FINAL_VAR.
 */
import { markedLines, type RootAction, type RootTurn } from '../conversation.js';
import { labelHelpers } from '../python-snippets.js';

export const OOLONG_MARKER = 'customer support tickets, one per line';

const DISCOVER = `_tag = ("@" + "@")
tickets = [line for line in context.splitlines() if line.strip()]
print(f"{_tag}TICKETS {len(tickets)}")
print(tickets[:2])`;

const LABEL = `${labelHelpers()}
_items = []
for _line in tickets:
    _m = re.match(r"^\\[([^\\]]+)\\]\\s*(.*)$", _line)
    if _m:
        _items.append((_m.group(1), _m.group(2)))
labels, _sent = _label_all(_items)
counts = {c: 0 for c in _CATS}
for _c in labels.values():
    counts[_c] += 1
answer_json = json.dumps(counts)
print(f"{_tag}BATCHES {_sent}")
print(f"{_tag}LABELED {len(labels)} of {len(_items)}")
print(f"{_tag}COUNTS {answer_json}")`;

const RELABEL = `${labelHelpers()}
_missing = [(i, t) for i, t in _items if i not in labels]
_more, _sent = _label_all(_missing)
labels.update(_more)
counts = {c: 0 for c in _CATS}
for _c in labels.values():
    counts[_c] += 1
answer_json = json.dumps(counts)
print(f"{_tag}LABELED {len(labels)} of {len(_items)}")
print(f"{_tag}COUNTS {answer_json}")`;

/** The newest `LABELED n of m` the REPL printed. */
function lastLabeled(turn: RootTurn): { got: number; of: number } | undefined {
  const lines = markedLines(turn.observation, 'LABELED');
  const m = /^(\d+) of (\d+)/.exec(lines[lines.length - 1] ?? '');
  return m ? { got: Number(m[1]), of: Number(m[2]) } : undefined;
}

export function oolongStep(turn: RootTurn): RootAction {
  if (turn.turn === 0) {
    return {
      kind: 'code',
      code: DISCOVER,
      note: 'Tickets cannot be classified by keyword; first I split them and look at a sample.',
    };
  }
  if (turn.turn === 1) {
    return {
      kind: 'code',
      code: LABEL,
      note: 'I will label the tickets in batches with sub-calls and count the labels in code.',
    };
  }
  const labeled = lastLabeled(turn);
  if (labeled && labeled.got < labeled.of && turn.turn < 4) {
    return {
      kind: 'code',
      code: RELABEL,
      note: `${labeled.of - labeled.got} tickets came back without a label; asking again for those.`,
    };
  }
  return {
    kind: 'final_var',
    variable: 'answer_json',
    note: 'The counts are in answer_json.',
  };
}
