import { arr, isObj, num, numOr, type Obj, obj, optStr, str } from './coerce.js';
import { addEntry, addUnknown, countTurns, emptyTurn } from './header.js';
import { addTokens, oneLine, preview, zeroTokens } from './preview.js';
import { readUsage } from './tokens.js';
import type { Ending, RunHeader, TurnSummary } from './view-model.js';

const LIMIT_STOPS = new Set([
  'max_iterations',
  'max_timeout',
  'error_limit',
  'token_budget',
  'context_overflow',
]);

/**
 * Folds reclamo trajectory events into a run header, one line at a time,
 * and says which timeline row each line belongs to.
 */
export class ReclamoScan {
  private readonly turnRows = new Map<number, number>();
  private rootTokens = zeroTokens();
  private subTokens = zeroTokens();
  private sawRootUsage = false;
  private sawSubUsage = false;
  private forced: Ending | undefined;
  private sawFinal = false;

  constructor(readonly header: RunHeader) {}

  /** Takes one record; returns its timeline index, or -1 when it only feeds the header. */
  take(record: Obj, line: number): number {
    const version = num(record.v);
    if (version !== null && this.header.version === undefined) this.header.version = version;
    switch (record.type) {
      case 'metadata':
        this.metadata(record);
        return -1;
      case 'iteration':
        return this.iteration(record);
      case 'subcall':
        return this.subcall(record);
      case 'compaction':
      case 'context_overflow':
        return this.turnEvent(record);
      case 'forced_finish':
        return this.forcedFinish(record);
      case 'final':
        return this.final(record);
      default:
        return addUnknown(this.header, line, record);
    }
  }

  /** Call after the last line: fills totals the file did not state. */
  finish(): void {
    const { header } = this;
    if (header.tokens.root === null && this.sawRootUsage) header.tokens.root = this.rootTokens;
    if (header.tokens.sub === null && this.sawSubUsage) header.tokens.sub = this.subTokens;
    if (!this.sawFinal && this.forced) header.ending = this.forced;
    countTurns(header);
  }

  private metadata(record: Obj): void {
    const { header } = this;
    const runId = optStr(record.runId);
    if (runId) header.runId = runId;
    header.question = preview(str(record.query));
    const startedAt = optStr(record.t);
    if (startedAt) header.startedAt = startedAt;
    header.depth = numOr(record.depth, 0);
    const maxDepth = num(record.maxDepth);
    if (maxDepth !== null) header.maxDepth = maxDepth;
    header.endpoints = arr(record.endpoints)
      .filter(isObj)
      .map((e) => {
        const concurrency = num(e.concurrency);
        const api = optStr(e.api);
        return {
          baseUrl: str(e.baseUrl),
          roles: arr(e.roles).map((r) => str(r)),
          ...(api ? { api } : {}),
          ...(concurrency !== null ? { concurrency } : {}),
        };
      });
    if (isObj(record.parent)) {
      header.parent = {
        runId: str(record.parent.runId),
        file: str(record.parent.file),
        subcall: numOr(record.parent.subcall, 0),
      };
    }
    const profile = obj(record.profile);
    const context = obj(record.context);
    const settings: [string, string][] = [
      ['profile', str(profile.name)],
      ['protocol', str(record.protocol)],
      ['prompt version', str(record.promptVersion)],
      ['planner style', str(record.plannerStyle)],
      ['context', contextLabel(context)],
    ];
    const model = roleModel(profile.settings);
    if (model) header.model = model;
    header.settings = settings.filter(([, value]) => value !== '');
  }

  private row(turn: number): TurnSummary {
    let index = this.turnRows.get(turn);
    if (index === undefined) {
      index = addEntry(this.header, emptyTurn(turn));
      this.turnRows.set(turn, index);
    }
    return this.header.timeline[index] as TurnSummary;
  }

  private rowIndex(turn: number): number {
    this.row(turn);
    return this.turnRows.get(turn) ?? -1;
  }

  private iteration(record: Obj): number {
    const turn = numOr(record.turn, 0);
    const row = this.row(turn);
    const { header } = this;
    const timings = obj(record.timings);
    const modelMs = num(timings.modelMs);
    const replMs = num(timings.replMs);
    const harnessMs = num(timings.harnessMs);
    row.partial = false;
    const at = optStr(record.t);
    if (at) row.at = at;
    row.modelMs = modelMs;
    row.replMs = replMs;
    row.harnessMs = harnessMs;
    row.ms =
      modelMs === null && replMs === null && harnessMs === null
        ? null
        : (modelMs ?? 0) + (replMs ?? 0) + (harnessMs ?? 0);
    header.time.modelMs += modelMs ?? 0;
    header.time.replMs += replMs ?? 0;
    header.time.harnessMs = (header.time.harnessMs ?? 0) + (harnessMs ?? 0);
    const usage = readUsage(record.usage);
    if (usage) {
      row.inputTokens = usage.inputTokens;
      row.outputTokens = usage.outputTokens;
      addTokens(this.rootTokens, usage);
      this.sawRootUsage = true;
    }
    const blocks = arr(record.blocks).filter(isObj);
    row.blocks = blocks.length;
    row.errors = blocks.filter((b) => {
      const result = obj(b.result);
      return isObj(result.error) || result.timedOut === true;
    }).length;
    row.nudges = arr(record.nudges).length;
    header.counts.errors += row.errors;
    header.counts.nudges += row.nudges;
    row.final = isObj(record.final) && record.final.accepted === true;
    const content = str(record.content);
    const firstCode = blocks.length > 0 ? str(blocks[0]?.code) : '';
    row.preview = oneLine(content.replace(/```[\s\S]*?(```|$)/g, ' ').trim() || firstCode);
    const model = optStr(record.model);
    if (!header.model && model) header.model = model;
    return this.rowIndex(turn);
  }

  private subcall(record: Obj): number {
    const { header } = this;
    const row = this.row(numOr(record.turn, 0));
    row.subcalls += 1;
    header.counts.subcalls += 1;
    const kind = str(record.kind, 'unknown');
    header.subcallsByKind[kind] = (header.subcallsByKind[kind] ?? 0) + 1;
    if (optStr(record.child)) {
      row.children += 1;
      header.counts.children += 1;
    }
    const usage = readUsage(record.usage);
    if (usage) {
      addTokens(this.subTokens, usage);
      this.sawSubUsage = true;
    }
    return this.rowIndex(numOr(record.turn, 0));
  }

  private turnEvent(record: Obj): number {
    const turn = numOr(record.turn, 0);
    this.row(turn).compactions += 1;
    if (record.type === 'compaction') this.header.counts.compactions += 1;
    return this.rowIndex(turn);
  }

  private forcedFinish(record: Obj): number {
    const usage = readUsage(record.usage);
    if (usage) {
      addTokens(this.rootTokens, usage);
      this.sawRootUsage = true;
    }
    const variable = optStr(record.variable);
    const content = optStr(record.content);
    const error = optStr(record.error);
    const at = optStr(record.t);
    this.forced = {
      kind: 'forced',
      forcedSource: str(record.source, 'unknown'),
      forcedReason: str(record.reason),
      ...(variable ? { variable } : {}),
    };
    this.header.answer = preview(str(record.answer));
    return addEntry(this.header, {
      kind: 'forced_finish',
      ...(at ? { at } : {}),
      reason: str(record.reason),
      source: str(record.source, 'unknown'),
      ...(variable ? { variable } : {}),
      answer: preview(str(record.answer)),
      ...(content ? { content: preview(content) } : {}),
      ...(usage ? { usage } : {}),
      ...(error ? { error } : {}),
    });
  }

  private final(record: Obj): number {
    const { header } = this;
    this.sawFinal = true;
    const stopReason = str(record.stopReason, 'unknown');
    const error = optStr(record.error);
    header.answer = preview(str(record.answer));
    header.ending = endingOf(stopReason, this.forced, error);
    const childTurns = num(record.childTurns);
    if (childTurns !== null) header.counts.childTurns = childTurns;
    const elapsed = num(record.elapsedMs);
    if (elapsed !== null) header.time.totalMs = elapsed;
    const usage = obj(record.usage);
    const root = readUsage(usage.root);
    const sub = readUsage(usage.sub);
    if (root) header.tokens.root = root;
    if (sub) header.tokens.sub = sub;
    const at = optStr(record.t);
    return addEntry(header, {
      kind: 'final',
      ...(at ? { at } : {}),
      answer: preview(str(record.answer)),
      stopReason,
      ...(error ? { error } : {}),
    });
  }
}

function endingOf(stopReason: string, forced: Ending | undefined, error?: string): Ending {
  const withError = error ? { error } : {};
  if (forced) return { ...forced, stopReason, ...withError };
  if (stopReason === 'final' || stopReason === 'answer_dict') {
    return { kind: 'final', stopReason, ...withError };
  }
  if (LIMIT_STOPS.has(stopReason)) return { kind: 'limit', stopReason, ...withError };
  return { kind: 'error', stopReason, ...withError };
}

function contextLabel(context: Obj): string {
  const type = str(context.type);
  const chars = num(context.totalChars);
  if (!type && chars === null) return '';
  const parts = arr(context.partLengths).length;
  return `${type || '?'}, ${(chars ?? 0).toLocaleString('en-US')} chars${parts > 1 ? `, ${parts} parts` : ''}`;
}

/** The root model's name from profile settings, when the profile records one. */
function roleModel(settings: unknown): string | undefined {
  const s = obj(settings);
  const root = obj(obj(s.roles).root);
  return optStr(root.model) ?? optStr(s.model) ?? optStr(s.rootModel);
}
