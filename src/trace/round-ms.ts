/** Milliseconds as trajectory records store them: rounded to the microsecond. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
