/**
 * One request of a frame: sent under the frame's budget node, traced at both
 * ends, with progress events (`receiving` at most once a second).
 */
import { addUsage, type Completion, type GenerateRequest } from '../lm/model.js';
import { generateWithBudget } from './budgeted-request.js';
import { type Conversation, link } from './frame-types.js';

const RECEIVING_EVERY_MS = 1_000;

/** Sends the conversation once under the budget, tracing both ends. */
export async function ask(c: Conversation, last: boolean): Promise<Completion> {
  const { tree, state, writer, traceId, messages, tools } = c;
  const { settings } = tree;
  const index = state.requests;
  let lastReceive = Number.NEGATIVE_INFINITY;
  const request: GenerateRequest = {
    messages: messages.slice(),
    ...(tools ? { tools: tools.specs, toolChoice: last ? 'none' : 'auto' } : {}),
    ...(settings.effort === undefined ? {} : { reasoningEffort: settings.effort }),
    ...(settings.abortSignal ? { abortSignal: settings.abortSignal } : {}),
    onReceive: () => {
      const now = settings.clock();
      if (now - lastReceive < RECEIVING_EVERY_MS) return;
      lastReceive = now;
      tree.emit({
        type: 'receiving',
        traceId,
        ...link(tree),
        elapsedMs: tree.elapsedMs(),
        request: index,
      });
    },
  };
  const sentAt = settings.clock();
  const { completion, settlement } = await generateWithBudget(settings.model, request, c.budget, {
    onReserved: (_reservation, maxTokens) => {
      state.requests += 1;
      writer.write({
        type: 'request',
        index,
        messages: messages.slice(state.recorded),
        maxTokens,
        tools: tools ? tools.specs.map((spec) => spec.name) : [],
        toolChoice: tools ? (last ? 'none' : 'auto') : null,
      });
      state.recorded = messages.length;
      tree.emit({
        type: 'request_start',
        traceId,
        ...link(tree),
        elapsedMs: tree.elapsedMs(),
        request: index,
        maxTokens,
        budget: c.budget.remaining(),
      });
    },
    onFailed: (error) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      const statusCode = (failure as { statusCode?: unknown }).statusCode;
      writer.write({
        type: 'request_error',
        index,
        error: {
          name: failure.name,
          message: failure.message,
          ...(typeof statusCode === 'number' ? { statusCode } : {}),
        },
      });
      tree.emit({
        type: 'request_end',
        traceId,
        ...link(tree),
        elapsedMs: tree.elapsedMs(),
        request: index,
        ok: false,
        charged: 0,
        latencyMs: Math.round(settings.clock() - sentAt),
        budget: c.budget.remaining(),
      });
    },
  });
  state.usage = addUsage(state.usage, completion.usage);
  state.recent.add('assistant', completion.content);
  writer.write({
    type: 'response',
    index,
    content: completion.content,
    reasoning: completion.reasoning,
    toolCalls: completion.toolCalls,
    finishReason: completion.finishReason,
    usage: completion.usage,
    charged: settlement.charged,
    model: completion.model,
    endpoint: completion.endpoint,
    latencyMs: completion.latencyMs,
  });
  tree.emit({
    type: 'request_end',
    traceId,
    ...link(tree),
    elapsedMs: tree.elapsedMs(),
    request: index,
    ok: true,
    usage: completion.usage,
    charged: settlement.charged,
    finishReason: completion.finishReason,
    latencyMs: Math.round(settings.clock() - sentAt),
    budget: c.budget.remaining(),
  });
  return completion;
}
