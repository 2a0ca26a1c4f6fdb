/**
 * One provider request under a budget: reserve a call and an output tranche,
 * send the tranche as the request's output limit, settle against the usage
 * the server reported (refunding what was not used), or settle as free when
 * the request failed. Any code that calls a model under a budget goes
 * through here, so no request ever starts on an exhausted budget.
 */
import type { Completion, GenerateRequest, LanguageModel } from '../lm/model.js';
import type { Budget, Reservation, Settlement } from './budget.js';
import { BudgetExhaustedError } from './errors.js';

/** A request that came back, with what the budget made of it. */
export interface BudgetedCompletion {
  completion: Completion;
  reservation: Reservation;
  settlement: Settlement;
}

/** Hooks around the request, for traces and progress. */
export interface BudgetedRequestHooks {
  /** The reservation was made; `maxTokens` is the output limit sent. */
  onReserved?: (reservation: Reservation, maxTokens: number) => void;
  /** The request failed; its tranche was refunded. */
  onFailed?: (error: unknown, reservation: Reservation) => void;
}

/**
 * Sends `request` to `model` under `budget`. Throws BudgetExhaustedError
 * (nothing sent) when the budget has no call, token or depth left; rethrows
 * the model's error after refunding the tranche.
 */
export async function generateWithBudget(
  model: LanguageModel,
  request: GenerateRequest,
  budget: Budget,
  hooks: BudgetedRequestHooks = {},
): Promise<BudgetedCompletion> {
  const reserved = budget.reserve();
  if (!reserved.ok) {
    throw new BudgetExhaustedError({
      exhausted: reserved.exhausted,
      remaining: reserved.remaining,
    });
  }
  const { reservation } = reserved;
  const limit = Math.min(reservation.tranche, request.maxTokens ?? model.maxTokens ?? Infinity);
  hooks.onReserved?.(reservation, limit);
  let completion: Completion;
  try {
    completion = await model.doGenerate({ ...request, maxTokens: limit });
  } catch (error) {
    budget.settle(reservation, null);
    hooks.onFailed?.(error, reservation);
    throw error;
  }
  const settlement = budget.settle(reservation, completion.usage);
  return { completion, reservation, settlement };
}
