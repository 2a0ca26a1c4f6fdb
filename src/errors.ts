/** Base class of every error reclamo throws on purpose. */
export class ReclamoError extends Error {
  override readonly name: string = 'ReclamoError';
}

/** Bad configuration: a profile, a flag, a file. The CLI exits 2. */
export class ConfigError extends ReclamoError {
  override readonly name: string = 'ConfigError';
  constructor(
    message: string,
    /** The file at fault, when there is one. */
    readonly file?: string,
    /** The key at fault, when there is one. */
    readonly key?: string,
  ) {
    super(message);
  }
}

/** No key could be found or fetched for an endpoint. The CLI exits 2. */
export class KeyError extends ReclamoError {
  override readonly name: string = 'KeyError';
}

/** A model endpoint failed after retries. The CLI exits 1. */
export class EndpointError extends ReclamoError {
  override readonly name: string = 'EndpointError';
  constructor(
    message: string,
    readonly endpoint: string,
    readonly statusCode?: number,
    readonly isRetryable = false,
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }

  /** How long the server asked us to wait (Retry-After), when it said. */
  readonly retryAfterMs?: number;
}

/** The caller's deadline passed before the request could finish. */
export class DeadlineError extends ReclamoError {
  override readonly name: string = 'DeadlineError';
}

/** The sandbox could not start or stay up (missing Python, broken worker). */
export class SandboxError extends ReclamoError {
  override readonly name: string = 'SandboxError';
}

/**
 * No usable Python interpreter: missing, not Python, too old, or unreadable by
 * the sandbox's uid. A configuration problem, so the CLI exits 2.
 */
export class InterpreterError extends SandboxError {
  override readonly name: string = 'InterpreterError';
  constructor(
    message: string,
    /** The interpreter that was tried: a name looked up on PATH, or a path. */
    readonly python: string,
  ) {
    super(message);
  }
}
