/**
 * The shape every evaluation task shares: a generator that builds a
 * deterministic instance from a size and a seed, and the instance's question,
 * context, hidden truth and scorer.
 */

/** A generated context: one string (as chunks, joined in order) or a dict of named texts. */
export type TaskContext =
  | { kind: 'text'; chunks: string[] }
  | { kind: 'dict'; files: Record<string, string> };

/** How an answer scored. */
export interface Score {
  /** 1 means fully right, 0 fully wrong. */
  score: number;
  /** True when the answer is exactly right. */
  exact: boolean;
  /** A short human-readable verdict, e.g. `found` or `abs error 3`. */
  summary: string;
  /** Task-specific numbers behind the verdict. */
  detail?: Record<string, unknown>;
}

/** A size in the task's unit (lines, tickets), or a label (`8k`, `small`) for tasks that name their sizes. */
export type TaskSize = number | string;

/** One generated task: what the model is asked, over what, and how it is scored. */
export interface TaskInstance<Truth = unknown> {
  task: string;
  size: TaskSize;
  seed: number;
  question: string;
  context: TaskContext;
  /** The answer key. Only the scorer and the scripted sub policy may read it. */
  truth: Truth;
  score(answer: string): Score;
}

/** Options for generating an instance. */
export interface GenerateOptions {
  /** Task size in the task's own unit (lines, tickets, sections, departments). */
  size?: number;
  /** Seed of the generator's random numbers. */
  seed?: number;
}

/** A task generator. */
export interface TaskGenerator<Truth = unknown> {
  name: string;
  /** One line saying what the task measures. */
  description: string;
  /** Unit of `size`, plural (e.g. `lines`). */
  sizeUnit: string;
  defaultSize: number;
  generate(options?: GenerateOptions): TaskInstance<Truth>;
}
