/**
 * Keeps a root request inside its input budget (seed 000 "Context budget").
 * In order: (1) REPL outputs older than the kept turns become stubs, and if
 * that is not enough the old turns are replaced by one summary; (2) the
 * remaining outputs are shrunk, largest first and oldest first among equals,
 * keeping head and tail; (3) whatever still does not fit is reported as
 * overflow. The model's code, nudges and turn lines are never cut. Pure apart
 * from the `summarize` callback: the caller stores the returned history.
 */
import type { Message } from '../../lm/model.js';
import { countMessage, countRequest } from '../../lm/tokens/index.js';
import { bound, cutMiddle, elisionStub, summaryHeader } from './compaction-text.js';
import type {
  CompactionInput,
  CompactionRecord,
  CompactionResult,
  MessageMeta,
  MessagePart,
} from './compaction-types.js';

export type * from './compaction-types.js';

/** Brings the history under the budget; see the module comment for the steps. */
export async function compactHistory(input: CompactionInput): Promise<CompactionResult> {
  const history = new WorkingHistory(input);
  const { compactAtTokens, limitTokens } = input.budget;
  const beforeTokens = history.total;
  if (beforeTokens <= compactAtTokens) {
    return { ...history.result(), beforeTokens, afterTokens: beforeTokens, overflow: false };
  }
  const record: CompactionRecord = {
    turn: input.turn,
    beforeTokens,
    afterTokens: beforeTokens,
    budgetTokens: limitTokens,
    compactAtTokens,
    elidedTurns: [],
    summarized: false,
    shrunkMessages: 0,
    estimator: input.estimator.name,
  };
  const oldTurns = olderTurns(history.meta, input.keepTurns ?? 4);
  record.elidedTurns = history.elideOutputs(oldTurns);
  if (history.total > compactAtTokens && oldTurns.size > 0) {
    const oldTokens = history.tokensOfTurns(oldTurns);
    const excess = history.total - compactAtTokens;
    // A summary sub-call is worth it when it alone would fit the request, or
    // when old turns hold a quarter of the target; otherwise shrinking the
    // kept outputs is needed anyway and a sub-call every turn would be waste.
    if (oldTokens >= excess || oldTokens >= compactAtTokens / 4) {
      await summarizeOldTurns(history, oldTurns, input, record);
    } else {
      record.summaryNote = `skipped: the old turns hold ${oldTokens} tokens, too few to matter`;
    }
  }
  if (history.total > compactAtTokens) {
    const shrunk = history.shrinkOutputs(compactAtTokens, input.minKeepChars ?? 400);
    if (shrunk.length > 0) {
      record.shrunk = shrunk.map(({ index: _, ...rest }) => rest);
      record.shrunkMessages = new Set(shrunk.map((s) => s.index)).size;
    }
  }
  const overflow = history.total > limitTokens;
  record.afterTokens = history.total;
  record.overflow = overflow;
  const offloaded = history.offloaded;
  return {
    ...history.result(),
    beforeTokens,
    afterTokens: history.total,
    overflow,
    record,
    ...(offloaded ? { offloaded } : {}),
  };
}

/** Turns (among those in the history) before the last `keep` ones. */
function olderTurns(meta: readonly MessageMeta[], keep: number): Set<number> {
  const turns = [...new Set(meta.flatMap((m) => (m.turn === undefined ? [] : [m.turn])))];
  turns.sort((a, b) => a - b);
  return new Set(turns.slice(0, Math.max(0, turns.length - keep)));
}

async function summarizeOldTurns(
  history: WorkingHistory,
  oldTurns: Set<number>,
  input: CompactionInput,
  record: CompactionRecord,
): Promise<void> {
  if (!input.summarize) {
    record.summaryNote = 'no summarizer given';
    return;
  }
  const indices = history.indicesOfTurns(oldTurns);
  if (indices.length === 0) return;
  const perText = Math.max(200, Math.floor((input.summaryInputChars ?? 60_000) / indices.length));
  const texts = indices.map((i) => bound(history.fullText(i), perText));
  let summary: string;
  try {
    summary = await input.summarize(texts);
  } catch (error) {
    record.summaryNote = error instanceof Error ? error.message : String(error);
    return;
  }
  const turns = [...oldTurns].sort((a, b) => a - b);
  const first = turns[0] ?? 0;
  const last = turns[turns.length - 1] ?? 0;
  const variable = input.offloadVariable ?? input.historyVariable ?? 'history';
  const full = indices.map((i) => history.fullText(i)).join('\n\n');
  const text = summaryHeader(first, last, variable) + bound(summary, input.summaryMaxChars ?? 4000);
  if (history.replaceWithSummary(indices, text, last)) {
    record.summarized = true;
    record.summarizedTurns = turns;
    history.offloaded = { variable, turns, text: full };
  } else {
    record.summaryNote = 'the summary was not smaller than the turns it would replace';
  }
}

/** Tokens the cut marker itself costs, about. */
const MARKER_TOKENS = 40;

/** An output that may be cut. */
interface Candidate {
  index: number;
  partIndex: number;
  part: MessagePart;
  tokens: number;
  turn: number;
}

/**
 * The size the largest items must be cut down to so that `need` tokens go:
 * with sizes sorted largest first, the level L where the cuts above L add up
 * to `need`. Never below 0.
 */
export function waterLevel(sortedDesc: readonly number[], need: number): number {
  let sum = 0;
  for (let k = 1; k <= sortedDesc.length; k++) {
    sum += sortedDesc[k - 1]!;
    const level = (sum - need) / k;
    if (level >= (sortedDesc[k] ?? 0)) return Math.max(0, Math.floor(level));
  }
  return 0;
}

interface ShrinkRecord {
  index: number;
  turn: number;
  block?: number;
  fromChars: number;
  toChars: number;
}

/** A copy of the history with per-message token counts kept current. */
class WorkingHistory {
  readonly messages: Message[];
  readonly meta: MessageMeta[];
  private readonly tokens: number[];
  private readonly fixed: number;
  private readonly variable: string;
  total: number;
  /** Set when a summary replaced turns: their full text. */
  offloaded?: { variable: string; turns: number[]; text: string };

  constructor(private readonly input: CompactionInput) {
    if (input.meta.length !== input.messages.length) {
      throw new RangeError(
        `compactHistory: meta has ${input.meta.length} entries for ${input.messages.length} messages; give one per message.`,
      );
    }
    this.messages = input.messages.slice();
    this.meta = input.meta.slice();
    this.variable = input.historyVariable ?? 'history';
    this.tokens = this.messages.map((m) => countMessage(m, input.estimator));
    this.fixed = countRequest(input.trailing ?? [], input.estimator, input.tools ?? []);
    this.total = this.fixed + this.tokens.reduce((a, b) => a + b, 0);
  }

  result(): { messages: Message[]; meta: MessageMeta[] } {
    return { messages: this.messages, meta: this.meta };
  }

  /** Step 1: every output of the old turns becomes a stub. Returns the turns touched. */
  elideOutputs(oldTurns: Set<number>): number[] {
    const touched = new Set<number>();
    this.meta.forEach((meta, i) => {
      if (meta.turn === undefined || !oldTurns.has(meta.turn)) return;
      const parts = this.parts(i);
      if (!parts.some((p) => p.kind === 'output')) return;
      const turn = meta.turn;
      this.setParts(
        i,
        parts.map((part) => {
          if (part.kind !== 'output') return part;
          const original = part.original ?? part.text;
          const stub = elisionStub(original.length, turn, part.block, part.ref ?? this.variable);
          const ref = part.ref !== undefined ? { ref: part.ref } : {};
          return withBlock({ kind: 'stub', text: stub, original, ...ref }, part.block);
        }),
      );
      touched.add(turn);
    });
    return [...touched].sort((a, b) => a - b);
  }

  tokensOfTurns(turns: Set<number>): number {
    return this.indicesOfTurns(turns).reduce((sum, i) => sum + (this.tokens[i] ?? 0), 0);
  }

  indicesOfTurns(turns: Set<number>): number[] {
    const found: number[] = [];
    this.meta.forEach((m, i) => {
      if (m.turn !== undefined && turns.has(m.turn)) found.push(i);
    });
    return found;
  }

  /** A message's text with every stubbed or shrunk output restored, labelled with its role. */
  fullText(i: number): string {
    const message = this.messages[i]!;
    const body = this.parts(i)
      .map((p) => p.original ?? p.text)
      .join('');
    const calls =
      message.role === 'assistant' && message.toolCalls
        ? message.toolCalls.map((c) => `\n[call ${c.name}] ${c.arguments}`).join('')
        : '';
    return `${message.role} (turn ${this.meta[i]?.turn}):\n${body}${calls}`;
  }

  /** Replaces the messages at `indices` by one summary message, if that is smaller. */
  replaceWithSummary(indices: number[], text: string, turn: number): boolean {
    const message: Message = { role: 'user', content: text };
    const tokens = countMessage(message, this.input.estimator);
    const removed = indices.reduce((sum, i) => sum + (this.tokens[i] ?? 0), 0);
    if (tokens >= removed) return false;
    const at = indices[0]!;
    for (const i of [...indices].reverse()) {
      this.messages.splice(i, 1);
      this.meta.splice(i, 1);
      this.tokens.splice(i, 1);
    }
    this.messages.splice(at, 0, message);
    this.meta.splice(at, 0, { turn, parts: [{ kind: 'summary', text }] });
    this.tokens.splice(at, 0, tokens);
    this.total += tokens - removed;
    return true;
  }

  /**
   * Step 2: cut outputs largest first until the total is at most `target`.
   * Cutting the largest until it is no longer the largest levels the biggest
   * outputs down to one size (water-filling); oldest first among equals. Each
   * keeps at least `minKeep` characters. Cuts are sized from each output's
   * own characters per token; the changed messages are then counted exactly,
   * and another round runs if estimate error left the total over.
   */
  shrinkOutputs(target: number, minKeep: number): ShrinkRecord[] {
    const done = new Map<string, ShrinkRecord>();
    // Aim a little below the target so the exact recount rarely needs another round.
    const slack = Math.max(8, Math.ceil(target * 0.002));
    for (let round = 0; round < 4 && this.total > target; round++) {
      const candidates = this.outputCandidates();
      const need = this.total - target + slack;
      // The first round levels; later ones only trim the largest output by the residue.
      const level =
        round === 0
          ? waterLevel(
              candidates.map((c) => c.tokens),
              need,
            )
          : Math.max(0, (candidates[0]?.tokens ?? 0) - need);
      const changed = new Set<number>();
      for (const c of round === 0 ? candidates : candidates.slice(0, 1)) {
        if (c.tokens <= level) break;
        const shrink = this.shrinkPart(c, level, minKeep);
        if (!shrink) continue;
        changed.add(c.index);
        done.set(`${c.index}:${c.partIndex}`, shrink);
      }
      if (changed.size === 0) break;
      for (const i of changed) this.recount(i);
    }
    return [...done.values()];
  }

  /** Cuts one output to about `tokens` tokens (never below `minKeep` chars); undefined if it cannot shrink. */
  private shrinkPart(c: Candidate, tokens: number, minKeep: number): ShrinkRecord | undefined {
    const full = c.part.original ?? c.part.text;
    const keptNow = c.part.keptChars ?? full.length;
    if (keptNow <= minKeep) return undefined;
    // The first cut also pays for the marker it inserts.
    const marker = c.part.keptChars === undefined ? MARKER_TOKENS : 0;
    const cutChars = Math.ceil((c.tokens - tokens + marker) * this.charsPerToken(full));
    const keep = Math.max(minKeep, keptNow - Math.max(1, cutChars));
    const text = cutMiddle(full, keep, c.part.ref ?? this.variable);
    const parts = this.parts(c.index).slice();
    parts[c.partIndex] = { ...c.part, text, original: full, keptChars: keep };
    this.setParts(c.index, parts, { recount: false });
    const shrink: ShrinkRecord = {
      index: c.index,
      turn: c.turn,
      fromChars: full.length,
      toChars: keep,
    };
    if (c.part.block !== undefined) shrink.block = c.part.block;
    return shrink;
  }

  private charsPerToken(full: string): number {
    return full.length / Math.max(1, this.input.estimator.count(full));
  }

  /**
   * Tokens of an output part. A shrunk one is estimated from its share of the
   * original (whose count is cached), so a round costs no tokenizing.
   */
  private partTokens(part: MessagePart): number {
    if (part.keptChars === undefined || part.original === undefined) {
      return this.input.estimator.count(part.text);
    }
    return Math.ceil(part.keptChars / this.charsPerToken(part.original)) + MARKER_TOKENS;
  }

  /** Outputs that may still be cut, largest (in tokens) first, oldest first among equals. */
  private outputCandidates(): Candidate[] {
    const candidates: Candidate[] = [];
    this.meta.forEach((meta, index) => {
      if (meta.turn === undefined) return;
      this.parts(index).forEach((part, partIndex) => {
        if (part.kind !== 'output') return;
        candidates.push({
          index,
          partIndex,
          part,
          tokens: this.partTokens(part),
          turn: meta.turn!,
        });
      });
    });
    candidates.sort(
      (a, b) =>
        b.tokens - a.tokens || a.turn - b.turn || a.index - b.index || a.partIndex - b.partIndex,
    );
    return candidates;
  }

  /** The message's parts (one implicit part when the meta gives none). */
  private parts(i: number): MessagePart[] {
    const given = this.meta[i]?.parts;
    if (given) return given;
    const message = this.messages[i]!;
    const kind =
      message.role === 'tool' ? 'output' : message.role === 'assistant' ? 'code' : 'text';
    return [{ kind, text: message.content }];
  }

  /** Replaces a message's parts; `recount: false` defers the exact count to {@link recount}. */
  private setParts(i: number, parts: MessagePart[], { recount = true } = {}): void {
    const message: Message = { ...this.messages[i]!, content: parts.map((p) => p.text).join('') };
    this.messages[i] = message;
    this.meta[i] = { ...this.meta[i], parts };
    if (recount) this.recount(i);
  }

  private recount(i: number): void {
    const tokens = countMessage(this.messages[i]!, this.input.estimator);
    this.total += tokens - (this.tokens[i] ?? 0);
    this.tokens[i] = tokens;
  }
}

function withBlock(part: MessagePart, block: number | undefined): MessagePart {
  if (block !== undefined) part.block = block;
  return part;
}
