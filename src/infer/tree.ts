/**
 * What a tree of frames shares: the model chosen by the outermost call, the
 * effort, where traces go, the progress listener, the limits on views and
 * tool rounds, ids and clocks. A subtree is the same settings over a budget
 * node one level deeper, linked to the frame that started it.
 */
import { randomBytes } from 'node:crypto';
import type { LanguageModel, ReasoningEffort } from '../lm/model.js';
import { trajectoryStem } from '../trace/writer.js';
import type { Budget } from './budget.js';
import type { InferEvent, InferEventListener } from './events.js';

/** Settings fixed for a whole tree. */
export interface TreeSettings {
  model: LanguageModel;
  effort?: ReasoningEffort;
  logDir: string | false;
  onEvent?: InferEventListener;
  abortSignal?: AbortSignal;
  maxViewBytes: number;
  /** Folders read frames may read under (resolved, real paths). */
  readRoots: string[];
  maxToolRounds: number;
  generateId: () => string;
  /** Wall clock for trace times. */
  now: () => Date;
  /** Monotonic clock in ms for elapsed times. */
  clock: () => number;
  startedAt: number;
}

/** Trace ids: the UTC time and 8 random hex digits, so files sort by start. */
export function defaultTraceId(now: Date): string {
  return trajectoryStem(now, randomBytes(4).toString('hex'));
}

/** A level of a tree of frames: shared settings, a budget node and the frame above. */
export class InferenceTree {
  constructor(
    readonly settings: TreeSettings,
    readonly budget: Budget,
    readonly parentId?: string,
  ) {}

  /** The tree under frame `parentId`, one depth level down. */
  child(parentId: string, budget: Budget): InferenceTree {
    return new InferenceTree(this.settings, budget.child(), parentId);
  }

  elapsedMs(): number {
    return Math.round(this.settings.clock() - this.settings.startedAt);
  }

  /** Hands an event to the listener; a listener that throws is ignored. */
  emit(event: InferEvent): void {
    const listener = this.settings.onEvent;
    if (!listener) return;
    try {
      listener(event);
    } catch {
      // Progress display must never break a frame.
    }
  }
}
