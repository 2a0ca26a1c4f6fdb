/**
 * What every generator starts an instance from: the size (the task's default
 * when unset), the seed (0 when unset) and the random numbers for that seed,
 * after checking the size against the task's range.
 */
import { TaskGenerationError } from '../errors.js';
import { Prng } from '../prng.js';
import type { GenerateOptions, TaskGenerator } from '../task.js';

/** The sizes a task can build; `max` unset means no upper bound. */
export interface SizeRange {
  min: number;
  max?: number;
}

export interface InstanceInputs {
  size: number;
  seed: number;
  /** Random numbers of the task's own stream for this seed. */
  rng: Prng;
}

/** Resolves a generator's options; a size out of range is a TaskGenerationError naming the range. */
export function instanceInputs(
  task: Pick<TaskGenerator, 'name' | 'sizeUnit' | 'defaultSize'>,
  options: GenerateOptions,
  range: SizeRange,
): InstanceInputs {
  const size = options.size ?? task.defaultSize;
  const seed = options.seed ?? 0;
  const { min, max } = range;
  if (!Number.isInteger(size) || size < min || (max !== undefined && size > max)) {
    const rule =
      max !== undefined
        ? `size (${task.sizeUnit}) must be an integer from ${min} to ${max}`
        : min === 1
          ? 'size must be a positive integer'
          : `size must be an integer of at least ${min}`;
    throw new TaskGenerationError(`${task.name}: ${rule}, got ${size}`);
  }
  return { size, seed, rng: new Prng(seed, task.name) };
}
