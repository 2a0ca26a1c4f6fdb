import { ConfigError, ReclamoError } from '../errors.js';

/** A task generator broke its own rule (a bug in the task, not in the model's answer). */
export class TaskGenerationError extends ReclamoError {
  override readonly name: string = 'TaskGenerationError';
}

/** A bench or eval could not run as asked: bad task name, size, module or row file. */
export class EvalConfigError extends ConfigError {
  override readonly name: string = 'EvalConfigError';
}
