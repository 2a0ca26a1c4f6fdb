/**
 * Trajectory reader: parses a `.jsonl` trajectory into events, reporting
 * malformed lines instead of throwing, so a file cut mid-write still reads.
 */
import { readFile } from 'node:fs/promises';
import { safeParseJson } from '../util/safe-json.js';
import { TRAJECTORY_SCHEMA_VERSION, type TrajectoryEvent } from './events.js';

export interface TrajectoryLineError {
  /** 1-based line number. */
  line: number;
  message: string;
}

export interface ParsedTrajectory {
  events: TrajectoryEvent[];
  errors: TrajectoryLineError[];
}

const REQUIRED: Record<TrajectoryEvent['type'], string[]> = {
  metadata: ['runId', 'query', 'context', 'depth'],
  iteration: ['turn', 'content', 'blocks'],
  subcall: ['kind', 'depth', 'count'],
  compaction: ['turn'],
  context_overflow: ['turn'],
  forced_finish: ['reason', 'source', 'answer'],
  final: ['answer', 'stopReason'],
};

/** Parses trajectory text (one JSON object per line). */
export function parseTrajectory(text: string): ParsedTrajectory {
  const events: TrajectoryEvent[] = [];
  const errors: TrajectoryLineError[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (raw.trim() === '') continue;
    const problem = checkLine(raw);
    if (typeof problem === 'string') errors.push({ line: i + 1, message: problem });
    else events.push(problem);
  }
  return { events, errors };
}

/** Reads and parses a trajectory file. */
export async function readTrajectory(path: string): Promise<ParsedTrajectory> {
  return parseTrajectory(await readFile(path, 'utf8'));
}

function checkLine(raw: string): TrajectoryEvent | string {
  const parsed = safeParseJson(raw);
  if (!parsed.ok) return `not valid JSON (${parsed.error})`;
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'not a JSON object';
  }
  const record = value as Record<string, unknown>;
  const type = record.type;
  if (typeof type !== 'string' || !(type in REQUIRED)) {
    return `unknown event type ${JSON.stringify(type)}`;
  }
  if (typeof record.v !== 'number') return `${type} event without a schema version "v"`;
  if (record.v > TRAJECTORY_SCHEMA_VERSION) {
    return `${type} event has schema version ${record.v}, newer than this reader (${TRAJECTORY_SCHEMA_VERSION}); upgrade reclamo`;
  }
  const missing = (REQUIRED[type as TrajectoryEvent['type']] ?? []).filter((k) => !(k in record));
  if (missing.length > 0) return `${type} event is missing ${missing.join(', ')}`;
  return record as unknown as TrajectoryEvent;
}
