/**
 * Progress events of a tree of frames, for status lines and progress
 * notifications. They carry ids and counts only, never task text or view
 * content (those belong in the traces).
 */
import type { FinishReason, Usage } from '../lm/model.js';
import type { BudgetRemaining } from './budget.js';

interface EventBase {
  traceId: string;
  /** The frame that started this one, when there is one. */
  parentId?: string;
  /** Milliseconds since the outermost call started. */
  elapsedMs: number;
}

export type InferEvent =
  | (EventBase & { type: 'frame_start'; depth: number; origin: string; budget: BudgetRemaining })
  | (EventBase & {
      type: 'request_start';
      /** 0-based request index within the frame. */
      request: number;
      /** Output tokens reserved for it (sent as the output limit). */
      maxTokens: number;
      budget: BudgetRemaining;
    })
  /** Bytes of a streamed reply are arriving (at most once a second per request). */
  | (EventBase & { type: 'receiving'; request: number })
  | (EventBase & {
      type: 'request_end';
      request: number;
      ok: boolean;
      usage?: Usage;
      /** Tokens charged to the budget. */
      charged: number;
      finishReason?: FinishReason;
      latencyMs: number;
      budget: BudgetRemaining;
    })
  | (EventBase & { type: 'repair'; request: number; problems: number })
  | (EventBase & { type: 'tool'; round: number; name: string; ok: boolean })
  | (EventBase & {
      type: 'frame_end';
      status: 'ok' | 'incomplete' | 'error';
      requests: number;
      budget: BudgetRemaining;
    });

/** Receives progress events; a listener that throws is ignored (progress never breaks a frame). */
export type InferEventListener = (event: InferEvent) => void;
