/**
 * Where model-written code runs. The loop drives a Sandbox; it knows nothing
 * of the worker process behind it.
 */

/** The shape of the loaded context, as the root prompt describes it (never the data). */
export interface ContextShape {
  /** Python type name of `context`: `str` or `dict`. */
  type: string;
  /** Total characters over all parts. */
  totalChars: number;
  /** Characters of each part (one entry for a str; one per file for a dict). */
  partLengths: number[];
  /** A file context that is not valid UTF-8: the byte offset of the first bad byte (bad bytes became U+FFFD). */
  invalidUtf8At?: number;
  /** Files skipped when loading a directory. */
  skipped?: {
    /** Hidden entries (names starting with `.`), files and directories alike. */
    hidden: number;
    notUtf8: number;
    /** Entries that could not be read (permissions, vanished). */
    unreadable?: number;
  };
}

/** Where the context comes from. */
export type ContextSource =
  | {
      kind: 'file';
      path: string;
      /**
       * `text` (default): `context` is the file's text. `json`: the file holds a JSON
       * object whose values are strings, and `context` is that dict (how rlm_query
       * hands a dict to a child).
       */
      format?: 'text' | 'json';
    }
  | { kind: 'directory'; path: string }
  | { kind: 'text'; text: string }
  | { kind: 'none' };

/** A call from model code to the host (`llm_query`, `llm_query_batched`, `rlm_query`). */
export type HostCall =
  | { kind: 'llm_query'; prompt: string; model?: string }
  | { kind: 'llm_query_batched'; prompts: string[]; model?: string }
  | {
      kind: 'rlm_query';
      question: string;
      /** The `data` argument, checked by the sandbox; usable until the handler settles. */
      data: RlmQueryData;
      model?: string;
    };

/**
 * The data of an rlm_query: a regular file the worker wrote in its own exchange
 * folder, opened and checked by the sandbox (never a path model code chose).
 */
export interface RlmQueryData {
  /** `str` for text (anything not a dict of str arrives as its JSON text), `dict` for a dict of str. */
  type: 'str' | 'dict';
  /** Its size in bytes. */
  bytes: number;
  /** The data as text (a dict as its JSON); rejects when it is over `maxBytes`. */
  text(maxBytes: number): Promise<string>;
  /** The data as the context of a child sandbox, moved where model code cannot reach it. */
  context(): Promise<ContextSource>;
}

/**
 * Answers host calls. For `llm_query_batched` it returns one string per prompt,
 * in order, with a failed item's error text in its slot. Throwing makes the
 * call raise in the model's code with the error's message.
 */
export type HostCallHandler = (call: HostCall) => Promise<string | string[]>;

/** A Python exception raised by the model's code. */
export interface ExecError {
  /** Exception class name, e.g. `NameError`. */
  type: string;
  message: string;
  /** Line number in the model's code, when known. */
  line?: number;
  /** Formatted traceback limited to the model's code. */
  traceback: string;
}

/** The outcome of one execution. Model code failing is a result, never a host exception. */
export interface ExecResult {
  stdout: string;
  stderr: string;
  /** Characters written to each stream, including what was not captured. */
  stdoutChars: number;
  stderrChars: number;
  /** True when a stream wrote more than the capture limit (1,000,000 chars). */
  stdoutOverflow: boolean;
  stderrOverflow: boolean;
  error?: ExecError;
  elapsedMs: number;
  /** Names bound or rebound by this execution. */
  changedNames: string[];
  /** Reserved names the code overwrote and the sandbox put back. */
  restoredNames: string[];
  /** Host calls this execution made. */
  hostCalls: number;
  /** Set when the execution hit its timeout. */
  timedOut: boolean;
  /**
   * Set when the worker had to be killed and relaunched (timeout without
   * stopping, crash, protocol violation); the model's variables are gone.
   */
  restarted?: { reason: 'timeout' | 'crash' | 'protocol'; detail: string };
}

/** A variable read as bounded text. */
export interface VariableValue {
  exists: boolean;
  type?: string;
  /** `str(value)` (or repr for non-str), cut to the requested size. */
  text?: string;
  /** Full length of the text before cutting. */
  chars?: number;
}

export interface VariableInfo {
  name: string;
  type: string;
  /** len() where it has one, else the length of its repr. */
  size: number;
}

/** The `answer` dict the model can set instead of writing FINAL. */
export interface AnswerState {
  ready: boolean;
  content: string;
  /** Full length of the content before cutting, when the sandbox reports it. */
  chars?: number;
}

/** What isolation is actually in force (never claimed when not applied). */
export interface SandboxCapabilities {
  /** Absolute path of the interpreter. */
  python: string;
  pythonVersion: string;
  /** The worker runs as a different, unprivileged user. */
  uidDropped: boolean;
  uid?: number;
  /** The worker has no network (own network namespace). */
  networkIsolated: boolean;
  /** Memory limit in bytes, when applied. */
  memoryLimitBytes?: number;
  /** Process limit, when applied. */
  processLimit?: number;
  /** Largest file the worker may write (RLIMIT_FSIZE), when applied. */
  fileSizeLimitBytes?: number;
  /** The worker is alone in a PID namespace: it cannot see or signal host processes. */
  pidIsolated?: boolean;
  /** The worker runs in its own user namespace (non-root hosts). */
  userNamespace?: boolean;
  /** `no_new_privs` is set: nothing the code executes can gain privileges. */
  noNewPrivs?: boolean;
  /** Other notes, e.g. why a limit could not be applied. */
  notes: string[];
}

export interface ExecOptions {
  /** Wall-clock limit for this execution in ms. */
  timeoutMs?: number;
  /** Cap on host calls for this execution. */
  maxHostCalls?: number;
  /** Interrupts the execution when aborted, as its timeout would (the variables are kept). */
  signal?: AbortSignal;
}

export interface Sandbox {
  readonly capabilities: SandboxCapabilities;
  readonly contextShape: ContextShape;
  exec(code: string, options?: ExecOptions): Promise<ExecResult>;
  /** Reads `name` as text, at most `maxChars` characters (default 1,000,000). */
  getVariable(name: string, maxChars?: number): Promise<VariableValue>;
  listVariables(): Promise<VariableInfo[]>;
  /** Bind a JSON-serialisable value to a name in the REPL. */
  setVariable(name: string, value: unknown): Promise<void>;
  /** Reads the `answer` dict; `content` is cut to `maxChars` (default 10,000,000). */
  readAnswer(maxChars?: number): Promise<AnswerState>;
  close(): Promise<void>;
}
