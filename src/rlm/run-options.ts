/** The options of `run()`: the question, the context, the models, and the run settings. */
import type { InlineModel } from '../config/inline-profile.js';
import type { ResolvedProfile } from '../config/types.js';
import type { LanguageModel } from '../lm/model.js';
import type { ContextSource } from '../sandbox/sandbox.js';
import type { EndpointRecord, TrajectoryEvent } from '../trace/events.js';
import type { RunStatus } from './run-tree.js';
import type { RunOverrides } from './settings.js';

export interface RunOptions extends RunOverrides, InlineModel {
  /** The question to answer. */
  query: string;
  /** A file or folder path, `-` for standard input, or a ContextSource. */
  context: string | ContextSource;
  /**
   * A resolved profile, or a profile name to load (user file, env overrides). Without one,
   * `baseUrl` and `model` name the server and model; with one, they replace its own.
   */
  profile?: ResolvedProfile | string;
  /** The API key itself, for every endpoint (never written anywhere); else `apiKeyEnv`'s. */
  apiKey?: string;
  /** Models to use instead of the profile's endpoints (both roles needed). */
  models?: { root: LanguageModel; sub: LanguageModel };
  /** Endpoint records for the trajectory when `models` is given. */
  endpoints?: EndpointRecord[];
  /** Where trajectories go; default `runs`. */
  logDir?: string;
  /** Also write `<stem>.sft.jsonl` (one line per root turn). */
  sft?: boolean;
  /** Python interpreter for the REPL (default: the profile's, else python3 on PATH). */
  python?: string;
  /** Replaces the built-in system prompt (wins over `systemPromptFile`). */
  systemPrompt?: string;
  /** Environment for profile loading (default process.env). */
  env?: Record<string, string | undefined>;
  /** Each trajectory event as it is written, with the depth of the RLM that wrote it. */
  onEvent?: (event: TrajectoryEvent, depth: number) => void;
  /** Live progress: turn, sub-calls, tokens, elapsed and time left. */
  onStatus?: (status: RunStatus) => void;
  /** Cancels the run; the result then has stop reason `aborted`. */
  abortSignal?: AbortSignal;
  /** Test hooks: a clock (ms since epoch) and an id generator, for reproducible trajectories. */
  _internal?: { now?: () => number; generateId?: () => string };
}
