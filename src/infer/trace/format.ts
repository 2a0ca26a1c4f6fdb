/**
 * A bounded, readable view of one inference trace: what `reclamo trace show`
 * prints and what a resource reader can hand a model. Every piece is cut to
 * its head and tail, and the whole to `maxChars`.
 */
import { headTail } from '../../util/head-tail.js';
import type { InferenceTraceEvent } from './events.js';
import type { InferenceTrace } from './read.js';

/** How much of each piece is kept. */
export interface FormatTraceOptions {
  /** Characters kept of each message, reply or tool result. Default 1,000. */
  pieceChars?: number;
  /** Characters of the whole view. Default 20,000. */
  maxChars?: number;
}

const cut = (text: string, max: number) => headTail(text, max).text;
const indent = (text: string) => text.replace(/\n/g, '\n    ');

function line(event: InferenceTraceEvent, piece: number): string[] {
  switch (event.type) {
    case 'frame':
      return [
        `task: ${cut(event.task, piece)}`,
        `origin: ${event.origin}${event.parentId ? `; parent inference:${event.parentId}` : ''}`,
        `model: ${event.model.id} at ${event.model.endpoint}; capabilities ${event.parameters.capabilities}${event.parameters.effort ? `; effort ${event.parameters.effort}` : ''}`,
        `contract: ${event.contract.kind === 'text' ? 'text' : cut(JSON.stringify(event.contract.schema), piece)}`,
        `budget at start: ${event.budget.calls} calls, ${event.budget.tokens} tokens, depth ${event.budget.depth}`,
        `views: ${event.views.length === 0 ? 'none' : ''}`,
        ...event.views.map(
          (v) => `  ${v.label}: ${v.bytes} bytes, sha256 ${v.sha256}${v.path ? `, ${v.path}` : ''}`,
        ),
      ];
    case 'request':
      return [
        `request ${event.index}: output limit ${event.maxTokens}${event.toolChoice ? `; tools ${event.toolChoice}` : ''}`,
        ...event.messages.map((m) => `  ${m.role}: ${indent(cut(m.content, piece))}`),
      ];
    case 'response':
      return [
        `response ${event.index}: ${event.finishReason}; tokens in ${event.usage.inputTokens} (cached ${event.usage.cachedInputTokens}), out ${event.usage.outputTokens}; charged ${event.charged}; ${event.latencyMs} ms`,
        ...(event.content ? [`  ${indent(cut(event.content, piece))}`] : []),
        ...event.toolCalls.map((c) => `  calls ${c.name}(${cut(c.arguments, 200)})`),
      ];
    case 'request_error':
      return [
        `request ${event.index} failed: ${event.error.name}: ${cut(event.error.message, piece)}`,
      ];
    case 'repair':
      return [
        `repair after response ${event.index}:`,
        ...event.problems.map((p) => `  - ${cut(p, 300)}`),
      ];
    case 'tool':
      return [
        `tool round ${event.round}: ${event.call.name} ${event.ok ? 'ok' : 'refused'} (${event.resultChars} characters)${event.childIds ? `; children ${event.childIds.map((id) => `inference:${id}`).join(', ')}` : ''}`,
        `  ${indent(cut(event.result, piece))}`,
      ];
    case 'child':
      return [`child inference:${event.traceId} (${event.origin})`];
    case 'outcome':
      return [
        `outcome: ${event.status} after ${event.requests} requests, ${event.elapsedMs} ms; spent ${event.spent.calls} calls, ${event.spent.tokens} tokens; left ${event.budget.calls} calls, ${event.budget.tokens} tokens`,
        ...(event.status === 'ok'
          ? [
              `  value: ${indent(cut(typeof event.value === 'string' ? event.value : JSON.stringify(event.value), piece))}`,
            ]
          : []),
        ...(event.observation
          ? [
              `  ${event.observation.exhausted} ran out; ${event.observation.recent.length} recent outputs kept`,
            ]
          : []),
        ...(event.error ? [`  ${event.error.name}: ${cut(event.error.message, piece)}`] : []),
      ];
  }
}

/** The trace as bounded text. */
export function formatTrace(trace: InferenceTrace, options: FormatTraceOptions = {}): string {
  const piece = options.pieceChars ?? 1_000;
  const max = options.maxChars ?? 20_000;
  const lines = [`inference:${trace.traceId}`];
  for (const event of trace.events) lines.push(...line(event, piece));
  if (!trace.outcome) lines.push('outcome: none yet (the frame is running, or it was stopped)');
  for (const error of trace.errors) lines.push(`line ${error.line} unreadable: ${error.message}`);
  return cut(lines.join('\n'), max);
}
