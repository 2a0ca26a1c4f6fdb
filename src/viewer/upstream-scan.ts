import { arr, display, isObj, num, type Obj, optStr, str } from './coerce.js';
import { addEntry, addUnknown, countTurns, emptyTurn } from './header.js';
import { addTokens, oneLine, preview, zeroTokens } from './preview.js';
import { readUpstreamUsage } from './tokens.js';
import { messageOf, promptText } from './upstream-text.js';
import { parseMaybeJson } from './upstream-values.js';
import type { RunHeader } from './view-model.js';

/**
 * Folds the upstream RLM package's log (metadata, run_context and iteration
 * lines) into a run header. Iteration numbers restart with each completion of
 * a multi-turn conversation, so every iteration line gets its own row.
 */
export class UpstreamScan {
  private subTokens = zeroTokens();
  private sawSubUsage = false;
  private maxIterations: number | null = null;
  private lastIteration = 0;

  constructor(readonly header: RunHeader) {
    header.time.harnessMs = null;
  }

  take(record: Obj, line: number): number {
    switch (record.type) {
      case 'metadata':
        this.metadata(record);
        return -1;
      case 'run_context':
        return this.runContext(record);
      case 'iteration':
        return this.iteration(record);
      default:
        return addUnknown(this.header, line, record);
    }
  }

  finish(): void {
    const { header } = this;
    if (this.sawSubUsage) header.tokens.sub = this.subTokens;
    countTurns(header);
    if (header.answer) header.ending = { kind: 'final', stopReason: 'final' };
    else if (this.maxIterations !== null && this.lastIteration >= this.maxIterations) {
      header.ending = { kind: 'limit', stopReason: 'max_iterations' };
    }
    if (header.counts.turns > 0 && header.time.totalMs === null) header.time.totalMs = 0;
    if (header.time.totalMs !== null) {
      header.time.totalMs = header.time.modelMs + header.time.replMs;
    }
  }

  private metadata(record: Obj): void {
    const { header } = this;
    const startedAt = optStr(record.timestamp);
    if (startedAt) header.startedAt = startedAt;
    const model = optStr(record.root_model);
    if (model) header.model = model;
    const maxDepth = num(record.max_depth);
    if (maxDepth !== null) header.maxDepth = maxDepth;
    this.maxIterations = num(record.max_iterations);
    const settings: [string, string][] = [];
    for (const key of [
      'backend',
      'backend_kwargs',
      'environment_type',
      'environment_kwargs',
      'max_iterations',
      'max_depth',
      'other_backends',
    ]) {
      if (record[key] === undefined || record[key] === null) continue;
      settings.push([key.replace(/_/g, ' '), oneLine(display(parseMaybeJson(record[key])), 300)]);
    }
    header.settings = settings;
  }

  private runContext(record: Obj): number {
    const { header } = this;
    const prompt = promptText(record.prompt);
    const root = record.root_prompt == null ? undefined : promptText(record.root_prompt);
    if (header.question.chars === 0) header.question = preview(root || prompt);
    const at = optStr(record.timestamp);
    const sessionMode = optStr(record.session_mode);
    const environment = optStr(record.environment_type);
    return addEntry(header, {
      kind: 'context',
      ...(at ? { at } : {}),
      prompt: preview(prompt),
      ...(root !== undefined ? { rootPrompt: preview(root) } : {}),
      ...(sessionMode ? { sessionMode } : {}),
      ...(environment ? { environment } : {}),
    });
  }

  private iteration(record: Obj): number {
    const { header } = this;
    const turn = num(record.iteration) ?? this.lastIteration + 1;
    this.lastIteration = turn;
    const row = emptyTurn(turn);
    row.partial = false;
    const at = optStr(record.timestamp);
    if (at) row.at = at;
    if (header.question.chars === 0) {
      const first = messageOf(record.prompt, 'user', 'first');
      if (first !== null) header.question = preview(first);
    }
    const blocks = arr(parseMaybeJson(record.code_blocks)).filter(isObj);
    let execMs = 0;
    for (const block of blocks) {
      const result = isObj(block.result) ? block.result : {};
      execMs += (num(result.execution_time) ?? 0) * 1000;
      if (str(result.stderr).trim() !== '') row.errors += 1;
      for (const call of arr(result.rlm_calls).filter(isObj)) {
        row.subcalls += 1;
        const nested = isObj(call.metadata) && Array.isArray(call.metadata.iterations);
        if (nested) row.children += 1;
        const kind = nested ? 'rlm_query' : 'llm_query';
        header.subcallsByKind[kind] = (header.subcallsByKind[kind] ?? 0) + 1;
        const usage = readUpstreamUsage(call.usage_summary);
        if (usage) {
          addTokens(this.subTokens, usage);
          this.sawSubUsage = true;
        }
      }
    }
    row.blocks = blocks.length;
    const seconds = num(record.iteration_time);
    row.replMs = execMs;
    if (seconds !== null) {
      row.ms = seconds * 1000;
      row.modelMs = Math.max(0, row.ms - execMs);
      header.time.modelMs += row.modelMs;
      header.time.totalMs = 0;
    }
    header.time.replMs += execMs;
    header.counts.subcalls += row.subcalls;
    header.counts.children += row.children;
    header.counts.errors += row.errors;
    const finalAnswer = record.final_answer;
    if (finalAnswer !== null && finalAnswer !== undefined) {
      row.final = true;
      header.answer = preview(display(finalAnswer));
    }
    const response = str(record.response);
    const firstCode = blocks.length > 0 ? str(blocks[0]?.code) : '';
    row.preview = oneLine(response.replace(/```[\s\S]*?(```|$)/g, ' ').trim() || firstCode);
    return addEntry(header, row);
  }
}
