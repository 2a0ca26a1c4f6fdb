/**
 * Trajectory writer: one JSON object per line, appended as the run goes, so
 * a run killed mid-way leaves a readable file (sub-call events reach it at the
 * end of the event-loop turn they happened in).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from '../lm/model.js';
import { boundFields, TRACE_FIELD_CHARS } from './bounded-fields.js';
import { TRAJECTORY_SCHEMA_VERSION, type TrajectoryEvent } from './events.js';
import { ensureLogDir, logDirError } from './log-dir.js';

/** An event as the loop hands it over: the writer adds `v` and `t`. */
export type EventInput = TrajectoryEvent extends infer E
  ? E extends TrajectoryEvent
    ? Omit<E, 'v' | 't'>
    : never
  : never;

export interface TrajectoryWriterOptions {
  /** Directory for the files; created when missing (a ConfigError when it cannot be). */
  dir: string;
  /** File name without extension, e.g. `20261007T094618Z-6d710f`. */
  stem: string;
  /** Clock for each event's `t`. */
  now?: () => Date;
  /** Also write `<stem>.sft.jsonl`. */
  sft?: boolean;
  /**
   * Characters kept of the `answer` of `final` and `forced_finish` records
   * (default the field bound); the run's answer limit, so an answer is kept whole.
   */
  answerChars?: number;
}

/** `20261007T094618Z-6d710f`: the UTC time of the run's start and its id. */
export function trajectoryStem(start: Date, id: string): string {
  const stamp = start
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${id}`;
}

export class TrajectoryWriter {
  /** Path of the trajectory file. */
  readonly path: string;
  /** Path of the SFT file, when one is written. */
  readonly sftPath?: string;
  private fd: number | null;
  private sftFd: number | null = null;
  private readonly now: () => Date;
  private pending: string[] = [];
  private flushSoon: NodeJS.Immediate | undefined;
  private readonly answerChars: number;

  constructor(options: TrajectoryWriterOptions) {
    ensureLogDir(options.dir);
    this.path = join(options.dir, `${options.stem}.jsonl`);
    this.now = options.now ?? (() => new Date());
    this.answerChars = options.answerChars ?? TRACE_FIELD_CHARS;
    let fd: number | null = null;
    try {
      // Trajectories hold the question, the context's pieces and model output: owner only.
      fd = openSync(this.path, 'a', 0o600);
      if (options.sft) {
        this.sftPath = join(options.dir, `${options.stem}.sft.jsonl`);
        this.sftFd = openSync(this.sftPath, 'a', 0o600);
      }
    } catch (error) {
      if (fd !== null) closeSync(fd);
      throw logDirError(options.dir, error);
    }
    this.fd = fd;
  }

  /**
   * Appends one event and returns it as written. Sub-call events wait for the
   * end of the current event-loop turn and go out together with the others of
   * that turn: a batch's replies arrive in bursts, and a disk write per reply
   * would delay the requests that follow them. Every other event is written at
   * once (after any waiting ones, so the file keeps the order of events).
   * A text field over its bound is written cut, with its size in `cutFields`.
   */
  write(event: EventInput): TrajectoryEvent {
    const answerBound =
      event.type === 'final' || event.type === 'forced_finish' ? { answer: this.answerChars } : {};
    const { value, cut } = boundFields(event, TRACE_FIELD_CHARS, answerBound);
    const full = {
      ...value,
      ...(Object.keys(cut).length > 0 ? { cutFields: cut } : {}),
      v: TRAJECTORY_SCHEMA_VERSION,
      t: this.now().toISOString(),
    } as TrajectoryEvent;
    if (this.fd === null) return full;
    this.pending.push(`${JSON.stringify(full)}\n`);
    if (full.type !== 'subcall') this.flush();
    else this.flushSoon ??= setImmediate(() => this.flush());
    return full;
  }

  /** Writes the events still waiting. */
  flush(): void {
    if (this.flushSoon) clearImmediate(this.flushSoon);
    this.flushSoon = undefined;
    if (this.pending.length === 0 || this.fd === null) return;
    const text = this.pending.join('');
    this.pending = [];
    writeSync(this.fd, text);
  }

  /** Appends one SFT line: the messages before a root turn and the turn's content. */
  writeSft(messages: readonly Message[], completion: string): void {
    if (this.sftFd === null) return;
    const { value, cut } = boundFields({ messages, completion });
    const line = Object.keys(cut).length > 0 ? { ...value, cutFields: cut } : value;
    writeSync(this.sftFd, `${JSON.stringify(line)}\n`);
  }

  close(): void {
    this.flush();
    if (this.fd !== null) closeSync(this.fd);
    if (this.sftFd !== null) closeSync(this.sftFd);
    this.fd = null;
    this.sftFd = null;
  }
}
