/**
 * Errors of the inference layer. A frame that runs out of budget rejects with
 * a PartialResultError whose observation keeps the work already done; a frame
 * that breaks its own protocol (a tool call where calls were disabled) rejects
 * with an InferenceError. Both carry the frame's trace id.
 */
import { ConfigError, ReclamoError } from '../errors.js';
import type { BudgetAllowance, BudgetRemaining } from './budget.js';
import type { IncompleteObservation } from './observation.js';

/** No reservation could be made: one allowance of the budget ran out. */
export class BudgetExhaustedError extends ReclamoError {
  override readonly name: string = 'BudgetExhaustedError';
  /** Which allowance ran out. */
  readonly exhausted: BudgetAllowance;
  /** What the budget still held when it refused. */
  readonly remaining: BudgetRemaining;

  constructor(options: {
    exhausted: BudgetAllowance;
    remaining: BudgetRemaining;
    message?: string;
  }) {
    super(
      options.message ??
        `The inference budget is exhausted (${options.exhausted} ran out). Give the call a larger budget (createBudget({ calls, tokens, depth })).`,
    );
    this.exhausted = options.exhausted;
    this.remaining = options.remaining;
  }

  /** True for a BudgetExhaustedError, also across copies of the library. */
  static isInstance(error: unknown): error is BudgetExhaustedError {
    return error instanceof Error && 'exhausted' in error && 'remaining' in error;
  }
}

/**
 * A frame ran out of budget before it had a valid answer. `observation` says
 * which allowance ran out, what is left, the trace id and the frame's last
 * outputs (evidence, not an answer).
 */
export class PartialResultError extends BudgetExhaustedError {
  override readonly name: string = 'PartialResultError';
  readonly observation: IncompleteObservation;

  constructor(observation: IncompleteObservation) {
    super({
      exhausted: observation.exhausted,
      remaining: observation.remaining,
      message: `Inference ${observation.traceId} is incomplete: the budget's ${observation.exhausted} ran out before a valid answer. The observation holds the last outputs; read inference:${observation.traceId} for the whole record, or give the call a larger budget.`,
    });
    this.observation = observation;
  }

  /** The trace id of the frame. */
  get traceId(): string {
    return this.observation.traceId;
  }

  static override isInstance(error: unknown): error is PartialResultError {
    return BudgetExhaustedError.isInstance(error) && 'observation' in error;
  }
}

/** A frame failed for a reason other than its budget (its model broke the protocol). */
export class InferenceError extends ReclamoError {
  override readonly name: string = 'InferenceError';
  /** The frame's trace id. */
  readonly traceId: string;

  constructor(options: { message: string; traceId: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.traceId = options.traceId;
  }
}

/** A contract (JSON Schema or zod schema) that cannot be used. Raised before any model call. */
export class ContractError extends ConfigError {
  override readonly name: string = 'ContractError';
}

/** A view that cannot be read, or one over the size limit. Raised before any model call. */
export class ViewError extends ConfigError {
  override readonly name: string = 'ViewError';
}

/** `readTrace` could not find or read an inference trace. */
export class TraceNotFoundError extends ReclamoError {
  override readonly name: string = 'TraceNotFoundError';
}
