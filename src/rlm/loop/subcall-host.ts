/**
 * What one RLM offers the host-call handler of its REPL: where the current
 * execution stands, its trajectory, the trigger of the decompose nudge, and
 * child RLMs started by rlm_query.
 */
import { basename } from 'node:path';
import type { EventInput } from '../../trace/writer.js';
import { shouldDecompose } from '../finish/nudges.js';
import type { RunTree } from '../run-tree.js';
import type { Conversation, RlmResult, RlmTask } from './rlm-state.js';
import type { ExecPosition, SubcallHost } from './subcalls.js';

/** The parts of one RLM its sub-call host is made of. */
export interface SubcallHostParts {
  tree: RunTree;
  task: RlmTask;
  conversation: Conversation;
  position: ExecPosition;
  emit: (event: EventInput) => void;
  /** This RLM's run id and trajectory path, recorded as a child's parent. */
  runId: string;
  trajectoryPath: string;
  /** Characters of this RLM's context (0 until its REPL is up). */
  contextChars: () => number;
  /** Runs a child RLM (the loop itself, passed in to keep imports one-way). */
  runRlm: (tree: RunTree, task: RlmTask) => Promise<RlmResult>;
}

/** The SubcallHost of one RLM. */
export function createSubcallHost(parts: SubcallHostParts): SubcallHost {
  const { tree, task, conversation } = parts;
  return {
    tree,
    depth: task.depth,
    position: parts.position,
    record: parts.emit,
    onPrompt: (chars) => {
      if (conversation.decomposeGiven || conversation.decomposeDue) return;
      const sizes = {
        promptChars: chars,
        contextChars: parts.contextChars(),
        perCallChars: tree.settings.subcallChars,
      };
      if (shouldDecompose(sizes)) conversation.decomposeDue = { promptChars: chars };
    },
    runChild: async (request) => {
      const child = await parts.runRlm(tree, {
        query: request.question,
        context: request.context,
        depth: task.depth + 1,
        parent: {
          runId: parts.runId,
          file: basename(parts.trajectoryPath),
          subcall: request.subcall,
        },
      });
      tree.childTurns += child.turns;
      if (child.error !== undefined) throw child.error;
      return { answer: child.answer, file: basename(child.trajectoryPath) };
    },
  };
}
