import { str } from './coerce.js';
import { oneLine } from './preview.js';
import type { RunHeader, TimelineEntry, TrajectoryFormat, TurnSummary } from './view-model.js';

/** A header with nothing known yet. */
export function emptyHeader(format: TrajectoryFormat): RunHeader {
  return {
    format,
    question: { text: '', chars: 0, cut: false },
    answer: null,
    ending: { kind: 'unfinished' },
    depth: 0,
    endpoints: [],
    settings: [],
    counts: { turns: 0, subcalls: 0, children: 0, compactions: 0, nudges: 0, errors: 0 },
    tokens: { root: null, sub: null },
    subcallsByKind: {},
    time: { totalMs: null, modelMs: 0, replMs: 0, harnessMs: 0 },
    timeline: [],
    issues: [],
  };
}

/** A turn row with nothing recorded yet (sub-call records can arrive before their turn's). */
export function emptyTurn(turn: number): TurnSummary {
  return {
    kind: 'turn',
    turn,
    ms: null,
    modelMs: null,
    replMs: null,
    harnessMs: null,
    inputTokens: null,
    outputTokens: null,
    blocks: 0,
    subcalls: 0,
    children: 0,
    errors: 0,
    nudges: 0,
    compactions: 0,
    final: false,
    partial: true,
    preview: '',
  };
}

/** Appends a timeline row and returns its index. */
export function addEntry(header: RunHeader, entry: TimelineEntry): number {
  header.timeline.push(entry);
  return header.timeline.length - 1;
}

/** Adds a row for a record of a type the format does not define, so it still shows. */
export function addUnknown(
  header: RunHeader,
  line: number,
  record: Record<string, unknown>,
): number {
  return addEntry(header, {
    kind: 'unknown',
    line,
    type: str(record.type, '(none)'),
    preview: oneLine(JSON.stringify(record), 300),
  });
}

/** Counts the turns on the timeline into the header. */
export function countTurns(header: RunHeader): void {
  header.counts.turns = header.timeline.filter((e) => e.kind === 'turn').length;
}
