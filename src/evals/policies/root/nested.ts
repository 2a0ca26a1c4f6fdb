/**
 * Scripted root for nested: print each log's first lines, recognise the
 * formats from them, then either start a child RLM per department
 * (rlm_query, when the system prompt offers it) or replay and label every
 * department itself with batched sub-calls.
 */

import { parseCategory } from '../../tasks/ticket-bank.js';
import {
  MARK_EXPR,
  markedLines,
  pyString,
  type RootAction,
  type RootTurn,
} from '../conversation.js';
import { detectLogFormat, labelHelpers, logReplayHelpers } from '../python-snippets.js';

export const NESTED_MARKER = "department names to that department's ticket log";
export const NESTED_CHILD_MARKER = "a single department's ticket log";

/** How the root chooses to split the work. */
export type Delegation = 'auto' | 'always' | 'never';

function targetCategory(turn: RootTurn): string {
  const m = /whose complaint is about ([a-z ]+?) \(/.exec(turn.harnessText);
  return (m?.[1] && parseCategory(m[1])) || 'billing';
}

function childQuestion(turn: RootTurn): string {
  const m = /whose complaint is about ([^\n]+?\))/.exec(turn.harnessText);
  const about = m?.[1] ?? 'billing (money taken, prices, statements)';
  return `The context is ${NESTED_CHILD_MARKER}, one event per line; its line format is not given, so inspect it first. Every ticket is opened once with a complaint; later events may close it or reopen it. How many tickets are still open at the end whose complaint is about ${about}? Complaints are paraphrased, so read them. Answer with the number only.`;
}

/** Formats recognised from printed `HEAD name || line` lines. */
function formats(turn: RootTurn): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of turn.observations.flatMap((o) => markedLines(o, 'HEAD'))) {
    const [name, sample] = line.split(' || ');
    const format = sample === undefined ? undefined : detectLogFormat(sample);
    if (name && format && !out[name]) out[name] = format;
  }
  return out;
}

const HEADS_DICT = `_tag = ${MARK_EXPR}
for _name in sorted(context):
    for _line in context[_name].splitlines()[:1]:
        print(f"{_tag}HEAD {_name} || {_line[:90]}")`;

const HEAD_STR = `_tag = ${MARK_EXPR}
for _line in context.splitlines()[:2]:
    print(f"{_tag}HEAD log || {_line[:90]}")`;

function replayAll(formatByName: Record<string, string>, target: string): string {
  return `${labelHelpers()}
${logReplayHelpers()}
_formats = ${JSON.stringify(formatByName)}
_target = ${pyString(target)}
_items = []
for _name, _fmt in _formats.items():
    for _tid, _complaint in _survivors(_fmt, context[_name]):
        _items.append((f"{_name}#{_tid}", _complaint))
labels, _sent = _label_all(_items)
counts = {name: 0 for name in sorted(context)}
for _key, _cat in labels.items():
    if _cat == _target:
        counts[_key.split("#")[0]] += 1
result = json.dumps({"counts": counts, "most": max(counts, key=counts.get)})
print(f"{_tag}LABELED {len(labels)} of {len(_items)} in {_sent} sub-calls")
print(f"{_tag}RESULT {result}")`;
}

function delegateAll(question: string): string {
  return `import re, json
_tag = ${MARK_EXPR}
_question = ${pyString(question)}
counts = {}
for _name in sorted(context):
    _reply = rlm_query(_question, context[_name])
    _m = re.search(r"-?\\d+", str(_reply))
    counts[_name] = int(_m.group(0)) if _m else 0
    print(f"{_tag}CHILD {_name} {counts[_name]}")
result = json.dumps({"counts": counts, "most": max(counts, key=counts.get)})
print(f"{_tag}RESULT {result}")`;
}

function replayOne(format: string, target: string): string {
  return `${labelHelpers()}
${logReplayHelpers()}
_items = _survivors(${pyString(format)}, context)
labels, _sent = _label_all(_items)
count_answer = str(sum(1 for c in labels.values() if c == ${pyString(target)}))
print(f"{_tag}LABELED {len(labels)} of {len(_items)}")
print(f"{_tag}COUNT {count_answer}")`;
}

export function nestedStep(turn: RootTurn, delegation: Delegation): RootAction {
  if (turn.turn === 0) {
    return {
      kind: 'code',
      code: HEADS_DICT,
      note: 'The logs use different formats; first I print the first lines of each.',
    };
  }
  if (turn.turn === 1) {
    const offered = /rlm_query\s*\(/.test(turn.system);
    const delegate = delegation === 'always' || (delegation === 'auto' && offered);
    if (delegate) {
      return {
        kind: 'code',
        code: delegateAll(childQuestion(turn)),
        note: 'Each department is a self-contained job; I will hand each log to a child RLM.',
      };
    }
    const found = formats(turn);
    return {
      kind: 'code',
      code: replayAll(found, targetCategory(turn)),
      note: `Formats: ${Object.entries(found)
        .map(([n, f]) => `${n}=${f}`)
        .join(', ')}. Replaying each log in code and labelling the open complaints in batches.`,
    };
  }
  return {
    kind: 'final_var',
    variable: 'result',
    note: 'The counts and the top department are in result.',
  };
}

/** A child RLM's steps: one department's log as a str. */
export function nestedChildStep(turn: RootTurn): RootAction {
  if (turn.turn === 0) {
    return { kind: 'code', code: HEAD_STR, note: 'First the log format.' };
  }
  if (turn.turn === 1) {
    const format = formats(turn).log;
    if (!format) {
      return { kind: 'final', answer: '0', note: 'I could not recognise the log format.' };
    }
    return {
      kind: 'code',
      code: replayOne(format, targetCategory(turn)),
      note: `The log is in the ${format} format; replaying it and labelling the open complaints.`,
    };
  }
  const printed = markedLines(turn.observation, 'COUNT')[0]?.trim();
  if (printed && /^\d+$/.test(printed)) {
    return { kind: 'final', answer: printed, note: 'The count is printed above.' };
  }
  return { kind: 'final_var', variable: 'count_answer', note: 'The count is in count_answer.' };
}
