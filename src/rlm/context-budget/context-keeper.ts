/**
 * The loop's side of the context budget: keeps the side structure compaction
 * reads (which message belongs to which turn, where each REPL output sits),
 * keeps every full output in the REPL (`history`, and `history_1`, ... for
 * the turns a summary replaced), and brings each root request under budget.
 */
import type { Message, ToolSpec } from '../../lm/model.js';
import { countRequest, type TokenEstimator } from '../../lm/tokens/index.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { roundMs } from '../../trace/round-ms.js';
import type { InputBudget } from './budget.js';
import { type CompactionResult, compactHistory, type MessageMeta } from './compaction.js';

/** The REPL variable holding every full output, in execution order. */
export const HISTORY_VARIABLE = 'history';
const PENDING_VARIABLE = '_reclamo_history_new';

/** One executed block as the loop saw it. */
export interface ShownOutput {
  /** The output as it appears in the turn's messages. */
  shown: string;
  /** The full output, kept in the REPL's `history`. */
  full: string;
  block: number;
}

export interface ContextKeeperOptions {
  budget: InputBudget;
  estimator: TokenEstimator;
  /** One summary sub-call over old turns' texts. */
  summarize: (texts: string[]) => Promise<string>;
  /** Clock in ms (the run's, so trajectories stay reproducible). */
  now: () => number;
}

export class ContextKeeper {
  /** Side information for each stored history message (same indices). */
  meta: MessageMeta[] = [];
  /** Full outputs of the run, in order (mirrors the REPL's `history`). */
  private readonly outputs: string[] = [];
  private synced = 0;
  private offloads = 0;

  constructor(private readonly options: ContextKeeperOptions) {}

  get estimator(): TokenEstimator {
    return this.options.estimator;
  }

  get budget(): InputBudget {
    return this.options.budget;
  }

  /** Messages without a turn (system prompt, opening) are never changed. */
  addFixed(count: number): void {
    for (let i = 0; i < count; i++) this.meta.push({});
  }

  /**
   * Records a turn's messages: each output found in them becomes an `output`
   * part pointing at its entry in `history`; everything else is kept whole.
   */
  addTurn(messages: readonly Message[], turn: number, blocks: readonly ShownOutput[]): void {
    let next = 0;
    for (const message of messages) {
      if (message.role === 'assistant') {
        this.meta.push({ turn });
        continue;
      }
      const parts: NonNullable<MessageMeta['parts']> = [];
      let cursor = 0;
      const text = message.content;
      while (next < blocks.length) {
        const block = blocks[next]!;
        const at = block.shown === '' ? -1 : text.indexOf(block.shown, cursor);
        if (at < 0) break;
        if (at > cursor) parts.push({ kind: 'text', text: text.slice(cursor, at) });
        parts.push({
          kind: 'output',
          text: block.shown,
          block: block.block,
          ref: `${HISTORY_VARIABLE}[${this.outputs.length - blocks.length + next}]`,
        });
        cursor = at + block.shown.length;
        next++;
      }
      if (cursor < text.length || parts.length === 0) {
        parts.push({ kind: 'text', text: text.slice(cursor) });
      }
      this.meta.push({ turn, parts });
    }
  }

  /** Remembers a block's full output (call before {@link addTurn} for the same turn). */
  addOutput(full: string): void {
    this.outputs.push(full);
  }

  /**
   * Brings the REPL's `history` up to date: appends new outputs, or binds the
   * whole list again after a restart emptied the REPL (`rebind`).
   */
  async syncHistory(sandbox: Sandbox, options: { rebind?: boolean } = {}): Promise<void> {
    // Keeping `history` current must never end a run: on failure it is retried next turn.
    await this.sync(sandbox, options).catch(() => {});
  }

  private async sync(sandbox: Sandbox, { rebind = false }: { rebind?: boolean }): Promise<void> {
    if (rebind || this.synced === 0) {
      await sandbox.setVariable(HISTORY_VARIABLE, this.outputs);
      this.synced = this.outputs.length;
      return;
    }
    if (this.synced === this.outputs.length) return;
    await sandbox.setVariable(PENDING_VARIABLE, this.outputs.slice(this.synced));
    const result = await sandbox.exec(
      `${HISTORY_VARIABLE}.extend(${PENDING_VARIABLE})\ndel ${PENDING_VARIABLE}`,
      { timeoutMs: 30_000, maxHostCalls: 0 },
    );
    if (result.error || result.restarted) {
      // The model rebound or deleted `history`, or the REPL restarted: bind it again.
      await sandbox.setVariable(HISTORY_VARIABLE, this.outputs);
    }
    this.synced = this.outputs.length;
  }

  /**
   * Compacts the stored history for a request whose extra messages
   * (`trailing`, e.g. a per-turn prompt) are never stored. Stores what a
   * summary replaced as `history_N` in the REPL.
   */
  async fit(
    history: readonly Message[],
    trailing: readonly Message[],
    tools: readonly ToolSpec[] | undefined,
    turn: number,
    sandbox: Sandbox,
  ): Promise<CompactionResult> {
    const { now } = this.options;
    const started = now();
    let summaryMs = 0;
    const summarize = async (texts: string[]) => {
      const t = now();
      try {
        return await this.options.summarize(texts);
      } finally {
        summaryMs += now() - t;
      }
    };
    const result = await compactHistory({
      messages: history,
      meta: this.meta,
      turn,
      budget: this.options.budget,
      estimator: this.options.estimator,
      ...(tools ? { tools } : {}),
      trailing,
      summarize,
      historyVariable: HISTORY_VARIABLE,
      offloadVariable: `${HISTORY_VARIABLE}_${this.offloads + 1}`,
    });
    if (result.record) {
      result.record.elapsedMs = roundMs(now() - started - summaryMs);
    }
    this.meta = result.meta;
    if (result.offloaded) {
      this.offloads++;
      await sandbox.setVariable(result.offloaded.variable, result.offloaded.text).catch(() => {});
    }
    return result;
  }

  /** Estimated tokens of a request. */
  count(messages: readonly Message[], tools?: readonly ToolSpec[]): number {
    return countRequest(messages, this.options.estimator, tools ?? []);
  }

  /** Whether a request fits under the budget's limit. */
  fits(messages: readonly Message[], tools?: readonly ToolSpec[]): boolean {
    return this.count(messages, tools) <= this.options.budget.limitTokens;
  }
}

/** The prompt of the summary sub-call. */
export function summaryPrompt(query: string, texts: readonly string[]): string {
  return [
    'Below are earlier turns of a Python REPL session in which an assistant is working on a question.',
    'They are being removed from its conversation to save space. Write a compact summary for the assistant:',
    'what it tried, what it found (exact values, names and numbers), which REPL variables hold results, and what is still open.',
    'Plain text, at most about 300 words.',
    '',
    `Question: ${query}`,
    '',
    ...texts.map((t, i) => `--- message ${i + 1} ---\n${t}`),
  ].join('\n');
}
