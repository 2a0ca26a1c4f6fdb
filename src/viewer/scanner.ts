import { safeParseJson } from '../util/safe-json.js';
import { isObj, type Obj } from './coerce.js';
import { detectFormat } from './detect-format.js';
import { addEntry, emptyHeader } from './header.js';
import { ReclamoScan } from './reclamo-scan.js';
import { UpstreamScan } from './upstream-scan.js';
import type { LineIssue, RunHeader, TrajectoryFormat } from './view-model.js';

const ISSUE_PREVIEW_CHARS = 300;

/**
 * Reads a trajectory one line at a time (either format, detected from the
 * first readable record) into a run header, and remembers which lines feed
 * each timeline row so their details can be built later. A line that is not
 * JSON becomes an `issue` row where it stood; the rest still reads.
 */
export class TrajectoryScanner {
  /** Timeline index → 1-based numbers of the lines that feed it. */
  readonly rowLines: number[][] = [];
  private impl: ReclamoScan | UpstreamScan | undefined;
  private readonly early: { issue?: LineIssue; record?: Obj; line: number }[] = [];
  private runHeader: RunHeader | undefined;

  constructor(private readonly format?: TrajectoryFormat) {
    if (format) this.start(format);
  }

  /**
   * Feeds one line of text (without its newline) and returns the record it
   * held, or undefined for a blank or unreadable line.
   */
  push(text: string, line: number): Obj | undefined {
    if (text.trim() === '') return undefined;
    const parsed = safeParseJson(text);
    if (!parsed.ok) {
      this.issue(line, `not valid JSON (${parsed.error})`, text);
      return undefined;
    }
    if (!isObj(parsed.value)) {
      this.issue(line, 'not a JSON object', text);
      return undefined;
    }
    this.pushRecord(parsed.value, line);
    return parsed.value;
  }

  /** Feeds one parsed record. */
  pushRecord(record: Obj, line: number): void {
    if (!this.impl) {
      const format = detectFormat(record);
      if (!format) {
        this.early.push({ record, line });
        return;
      }
      this.start(format);
    }
    this.take(record, line);
  }

  /** Ends the scan and returns the header (reclamo format when nothing told them apart). */
  finish(): RunHeader {
    if (!this.impl) this.start(this.format ?? 'reclamo');
    this.impl?.finish();
    return this.header;
  }

  get header(): RunHeader {
    if (!this.runHeader) this.start(this.format ?? 'reclamo');
    return this.runHeader as RunHeader;
  }

  private start(format: TrajectoryFormat): void {
    this.runHeader = emptyHeader(format);
    this.impl =
      format === 'reclamo' ? new ReclamoScan(this.runHeader) : new UpstreamScan(this.runHeader);
    const early = this.early.splice(0);
    for (const item of early) {
      if (item.issue) this.addIssue(item.issue);
      else if (item.record) this.take(item.record, item.line);
    }
  }

  private take(record: Obj, line: number): void {
    const index = this.impl?.take(record, line) ?? -1;
    if (index < 0) return;
    while (this.rowLines.length <= index) this.rowLines.push([]);
    this.rowLines[index]?.push(line);
  }

  private issue(line: number, error: string, text: string): void {
    const issue: LineIssue = {
      line,
      error,
      preview: text.slice(0, ISSUE_PREVIEW_CHARS),
      chars: text.length,
    };
    if (this.impl) this.addIssue(issue);
    else this.early.push({ issue, line });
  }

  private addIssue(issue: LineIssue): void {
    const header = this.runHeader as RunHeader;
    header.issues.push(issue);
    const index = addEntry(header, { kind: 'issue', ...issue });
    while (this.rowLines.length <= index) this.rowLines.push([]);
  }
}
