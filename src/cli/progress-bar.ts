/**
 * A live progress line on a terminal's stderr: a bar, done of total, the rate
 * and the time left, redrawn in place. Lines logged while it shows go above
 * it. Nothing is drawn when stderr is not a terminal.
 */

export type ProgressUnit = 'rows' | 'bytes';

export interface ProgressState {
  done: number;
  total?: number;
  /** Where this session started counting (a resumed download, rows done before). */
  startDone: number;
  elapsedMs: number;
  unit: ProgressUnit;
  /** What is going on now (the row that runs). */
  detail?: string;
}

/** `1m05s`, `42s`, `2h10m`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)} kB`;
  return `${n} B`;
}

/** The time left at the rate of this session, or undefined before there is a rate. */
export function etaMs(state: ProgressState): number | undefined {
  const gained = state.done - state.startDone;
  if (state.total === undefined || gained <= 0 || state.elapsedMs <= 0) return undefined;
  return ((state.total - state.done) * state.elapsedMs) / gained;
}

/** The progress line, at most `width` characters. */
export function formatProgress(state: ProgressState, width = 80): string {
  const parts: string[] = [];
  const count =
    state.unit === 'bytes'
      ? `${formatBytes(state.done)}${state.total !== undefined ? ` of ${formatBytes(state.total)}` : ''}`
      : `${state.done}/${state.total ?? '?'} rows`;
  if (state.total !== undefined && state.total > 0) {
    const share = Math.min(1, state.done / state.total);
    const cells = 20;
    const full = Math.round(share * cells);
    parts.push(`[${'#'.repeat(full)}${'-'.repeat(cells - full)}] ${Math.floor(share * 100)}%`);
  }
  parts.push(count);
  if (state.unit === 'bytes' && state.elapsedMs > 0) {
    parts.push(`${formatBytes(((state.done - state.startDone) * 1000) / state.elapsedMs)}/s`);
  }
  const eta = etaMs(state);
  parts.push(eta === undefined ? 'ETA --' : `ETA ${formatDuration(eta)}`);
  if (state.detail) parts.push(state.detail);
  const line = parts.join('  ');
  return line.length > width ? `${line.slice(0, Math.max(0, width - 1))}…` : line;
}

/** The terminal progress line; `undefined` from {@link ProgressBar.onStderr} when stderr is no terminal. */
export class ProgressBar {
  private shown = false;
  private readonly started: number;
  private startDone: number | undefined;
  private last: Omit<ProgressState, 'elapsedMs' | 'startDone'> | undefined;

  constructor(
    private readonly unit: ProgressUnit,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  static onStderr(unit: ProgressUnit): ProgressBar | undefined {
    return process.stderr.isTTY ? new ProgressBar(unit) : undefined;
  }

  update(done: number, total?: number, detail?: string): void {
    this.startDone ??= done;
    this.last = {
      done,
      unit: this.unit,
      ...(total !== undefined ? { total } : {}),
      ...(detail !== undefined ? { detail } : {}),
    };
    this.draw();
  }

  /** Prints a line above the bar. */
  log(line: string): void {
    this.clear();
    this.stream.write(`${line}\n`);
    this.draw();
  }

  clear(): void {
    if (this.shown) this.stream.write('\r\x1b[2K');
    this.shown = false;
  }

  private draw(): void {
    if (!this.last) return;
    const state: ProgressState = {
      ...this.last,
      startDone: this.startDone ?? 0,
      elapsedMs: this.now() - this.started,
    };
    this.stream.write(`\r\x1b[2K${formatProgress(state, (this.stream.columns ?? 80) - 1)}`);
    this.shown = true;
  }
}
