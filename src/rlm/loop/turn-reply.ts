/**
 * Getting one usable root reply: the call under the run's clock, then the
 * length-cut rules (empty content that is cut-off reasoning is retried with
 * thinking off; under v0.2 a reply cut part-way with no usable action is
 * continued once with thinking off).
 */
import {
  addUsage,
  type Completion,
  type GenerateRequest,
  type LanguageModel,
} from '../../lm/model.js';
import { CONTINUE_MESSAGE } from '../prompts/nudges.js';
import { parseReply } from '../protocols/fence/grammar.js';
import { type CallBounds, callWithDeadline } from './model-call.js';

export interface TurnReply {
  completion: Completion;
  /** Content after cut handling (a continuation is appended). */
  content: string;
  /** Reasoning from every request of the turn. */
  reasoning: string;
  /** What cut handling did, if anything. */
  cut?: 'retried_without_thinking' | 'continued';
  /** Requests made (1 to 2). */
  requests: number;
}

/** How a turn's reply is asked for. */
export interface TurnReplyOptions {
  /** The call's clock, deadline, timeout and cancel signal. */
  bounds: CallBounds;
  /** Continue a reply cut part-way with no usable action, once (prompt v0.2). */
  continueCutReplies: boolean;
}

/** One usable root reply: the call, then the length-cut rules (see the module comment). */
export async function getTurnReply(
  model: LanguageModel,
  request: GenerateRequest,
  { bounds, continueCutReplies }: TurnReplyOptions,
): Promise<TurnReply> {
  const first = await callWithDeadline(model, request, bounds);
  const reasoning = first.reasoning;
  // A reply with tool calls acts through them (a cut call's arguments are refused as bad JSON).
  if (first.finishReason !== 'length' || first.toolCalls.length > 0) {
    return { completion: first, content: first.content, reasoning, requests: 1 };
  }
  const visible = first.content;
  if (visible.trim() === '') {
    const retry = await callWithDeadline(model, { ...request, thinking: false }, bounds);
    return {
      completion: merged(first, retry),
      content: retry.content,
      reasoning: joinReasoning(reasoning, retry.reasoning),
      cut: 'retried_without_thinking',
      requests: 2,
    };
  }
  if (!continueCutReplies || hasUsableAction(first.content)) {
    return { completion: first, content: first.content, reasoning, requests: 1 };
  }
  const more = await callWithDeadline(
    model,
    {
      ...request,
      thinking: false,
      messages: [
        ...request.messages,
        { role: 'assistant', content: visible },
        { role: 'user', content: CONTINUE_MESSAGE },
      ],
    },
    bounds,
  );
  return {
    completion: merged(first, more),
    // The model was asked to continue exactly where it stopped: join without a separator.
    content: `${visible}${more.content}`,
    reasoning: joinReasoning(reasoning, more.reasoning),
    cut: 'continued',
    requests: 2,
  };
}

/** A complete code block or a FINAL: something the loop can act on. */
export function hasUsableAction(content: string): boolean {
  const parsed = parseReply(content);
  return parsed.final !== null || parsed.blocks.some((b) => b.complete);
}

/** The reasoning of both requests of a turn, in order. */
function joinReasoning(first: string, second: string): string {
  return [first, second].filter(Boolean).join('\n\n');
}

function merged(first: Completion, second: Completion): Completion {
  return {
    ...second,
    usage: addUsage(first.usage, second.usage),
    latencyMs: first.latencyMs + second.latencyMs,
  };
}
