/**
 * One model request under the run's clock: the timeout is capped by the time
 * left, and the call is abandoned (and aborted) when that time runs out, even
 * if the model layer does not notice on its own.
 */
import { DeadlineError } from '../../errors.js';
import type { Completion, GenerateRequest, LanguageModel } from '../../lm/model.js';

export interface CallBounds {
  /** Absolute deadline (ms since epoch, on the run's clock). */
  deadline: number;
  /** The run's clock. */
  now: () => number;
  /** Per-request timeout before the deadline cap. */
  timeoutMs: number;
  abortSignal?: AbortSignal;
}

/** Calls the model; throws DeadlineError when the deadline passes first. */
export async function callWithDeadline(
  model: LanguageModel,
  request: GenerateRequest,
  bounds: CallBounds,
): Promise<Completion> {
  const left = bounds.deadline - bounds.now();
  if (left <= 0) throw new DeadlineError('the run has no time left for another model request');
  const controller = new AbortController();
  const signal = bounds.abortSignal
    ? AbortSignal.any([controller.signal, bounds.abortSignal])
    : controller.signal;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    const fail = () => reject(new DeadlineError(`the model request ran past the run's deadline`));
    timer = setTimeout(() => {
      controller.abort(new DeadlineError('deadline'));
      fail();
    }, left);
    signal.addEventListener('abort', () => {
      if (!controller.signal.aborted) reject(signal.reason ?? new Error('aborted'));
    });
  });
  expired.catch(() => {});
  try {
    return await Promise.race([
      model.doGenerate({
        ...request,
        abortSignal: signal,
        deadline: wallDeadline(bounds),
        timeoutMs: Math.max(1, Math.min(bounds.timeoutMs, left)),
      }),
      expired,
    ]);
  } finally {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort();
  }
}

/** The deadline on the wall clock (the model layer uses Date.now()). */
function wallDeadline(bounds: CallBounds): number {
  return Date.now() + (bounds.deadline - bounds.now());
}
