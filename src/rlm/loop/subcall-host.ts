/**
 * What one loop offers the host-call handler of its REPL: where the current
 * execution stands, its trajectory, the trigger of the decompose nudge, and
 * child RLMs started by rlm_query.
 */
import { basename } from 'node:path';
import type { EventInput } from '../../trace/writer.js';
import { shouldDecompose } from '../finish/nudges.js';
import type { RunShared } from '../run-tree.js';
import type { LoopInput, LoopOutcome, LoopState } from './rlm-state.js';
import type { ExecPosition, SubcallHost } from './subcalls.js';

export interface LoopHostInput {
  shared: RunShared;
  input: LoopInput;
  state: LoopState;
  position: ExecPosition;
  emit: (event: EventInput) => void;
  /** This RLM's run id and trajectory path, recorded as a child's parent. */
  runId: string;
  trajectoryPath: string;
  /** Characters of this RLM's context (0 until its REPL is up). */
  contextChars: () => number;
  /** Runs a child RLM (the loop itself, passed in to keep imports one-way). */
  runLoop: (shared: RunShared, input: LoopInput) => Promise<LoopOutcome>;
}

/** The SubcallHost of one loop. */
export function createLoopHost(h: LoopHostInput): SubcallHost {
  const { shared, input, state } = h;
  return {
    shared,
    depth: input.depth,
    position: h.position,
    record: h.emit,
    onPrompt: (chars) => {
      if (state.decomposeGiven || state.decomposeDue) return;
      const sizes = {
        promptChars: chars,
        contextChars: h.contextChars(),
        perCallChars: shared.settings.subcallChars,
      };
      if (shouldDecompose(sizes)) state.decomposeDue = { promptChars: chars };
    },
    runChild: async (req) => {
      const child = await h.runLoop(shared, {
        query: req.question,
        context: req.context,
        depth: input.depth + 1,
        parent: { runId: h.runId, file: basename(h.trajectoryPath), subcall: req.subcall },
      });
      shared.childTurns += child.turns;
      if (child.error !== undefined) throw child.error;
      return { answer: child.answer, file: basename(child.trajectoryPath) };
    },
  };
}
