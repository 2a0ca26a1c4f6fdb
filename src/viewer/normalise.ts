import type { Obj } from './coerce.js';
import { buildReclamoTurn } from './reclamo-turn.js';
import { TrajectoryScanner } from './scanner.js';
import { buildUpstreamTurn } from './upstream-turn.js';
import type { RunHeader, RunView, TurnView } from './view-model.js';

/**
 * Builds the details of one timeline row from the records of its lines (in
 * file order); null for rows that are not turns.
 */
export function buildDetail(header: RunHeader, index: number, records: Obj[]): TurnView | null {
  if (header.timeline[index]?.kind !== 'turn' || records.length === 0) return null;
  if (header.format === 'upstream') return buildUpstreamTurn(records[0] as Obj, header.model);
  return buildReclamoTurn(records);
}

/** Normalises a whole trajectory held in memory (either format) into a run view. */
export function normaliseText(text: string): RunView {
  const scanner = new TrajectoryScanner();
  const records = new Map<number, Obj>();
  text.split('\n').forEach((line, i) => {
    const record = scanner.push(line, i + 1);
    if (record) records.set(i + 1, record);
  });
  const header = scanner.finish();
  const details = header.timeline.map((_, index) =>
    buildDetail(
      header,
      index,
      (scanner.rowLines[index] ?? []).flatMap((n): Obj[] => {
        const record = records.get(n);
        return record ? [record] : [];
      }),
    ),
  );
  return { header, details };
}

/** Normalises records already parsed (an upstream nested run, or a test's events). */
export function normaliseRecords(records: Obj[], format?: 'reclamo' | 'upstream'): RunView {
  const scanner = new TrajectoryScanner(format);
  records.forEach((record, i) => {
    scanner.pushRecord(record, i + 1);
  });
  const header = scanner.finish();
  const details = header.timeline.map((_, index) =>
    buildDetail(
      header,
      index,
      (scanner.rowLines[index] ?? []).map((n) => records[n - 1] as Obj),
    ),
  );
  return { header, details };
}
