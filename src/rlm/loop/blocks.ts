/**
 * Running a turn's code blocks in order: each under the exec timeout clamped
 * to the time left, skipped once the run is ending or too many executions in
 * a row failed; outputs are shown through the protocol and kept for the
 * context budget.
 */
import type { BlockRecord } from '../../trace/events.js';
import type { ShownOutput } from '../context-budget/context-keeper.js';
import { formatResultBody } from '../prompts/messages.js';
import type { CodeBlock } from '../protocols/fence/grammar.js';
import type { RunTree } from '../run-tree.js';
import { blockResult } from './iteration-record.js';
import type { ActiveRlm } from './rlm-state.js';

/** What running a turn's blocks produced. */
export interface BlocksRun {
  /** One record per block, run or skipped. */
  records: BlockRecord[];
  /** One message per block, run or skipped, in order. */
  outputs: string[];
  /** The blocks that ran, as shown and in full. */
  shownOutputs: ShownOutput[];
  /** A REPL restart happened (its history must be written again). */
  restarted: boolean;
  /** The run of consecutive failures reached max_errors. */
  errorLimit: boolean;
}

/** Runs `blocks` in order in the loop's REPL, counting executions and failures. */
export async function runBlocks(rlm: ActiveRlm, blocks: readonly CodeBlock[]): Promise<BlocksRun> {
  const { tree, conversation, sandbox, position } = rlm;
  const { settings } = tree;
  const protocol = conversation.protocol;
  const out: BlocksRun = {
    records: [],
    outputs: [],
    shownOutputs: [],
    restarted: false,
    errorLimit: false,
  };
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as CodeBlock;
    const skip = skipReason(tree, { errorLimit: out.errorLimit });
    if (skip !== undefined) {
      out.records.push({ code: block.code, skipped: skip });
      out.outputs.push(protocol.skippedBlock(i, block.code, skip));
      continue;
    }
    position.block = i + 1;
    position.inExec = 0;
    const timeoutMs = Math.min(settings.execTimeoutMs, Math.max(1000, tree.timeLeft()));
    const result = await sandbox.exec(block.code, {
      timeoutMs,
      maxHostCalls: settings.maxSubcallsPerExec,
      // A cancelled run interrupts the block at once instead of waiting out its timeout.
      ...(tree.abortSignal ? { signal: tree.abortSignal } : {}),
    });
    conversation.stats.execs++;
    if (result.error?.type === 'SyntaxError') conversation.stats.syntaxErrors++;
    const { message, shown, cutChars } = await protocol.formatBlock(i, block.code, result, sandbox);
    out.outputs.push(message);
    const full = formatResultBody(result, Number.POSITIVE_INFINITY).text;
    conversation.keeper.addOutput(full);
    out.shownOutputs.push({ shown, full, block: i + 1 });
    if (result.restarted) out.restarted = true;
    conversation.shown.push(shown);
    conversation.lastOutput = shown;
    out.records.push({ code: block.code, result: blockResult(result, cutChars) });
    if (result.error || result.timedOut || result.restarted) {
      conversation.consecutiveErrors++;
      if (conversation.consecutiveErrors >= settings.maxErrors) out.errorLimit = true;
    } else {
      conversation.consecutiveErrors = 0;
    }
  }
  return out;
}

/** Why the next block does not run, if it does not. */
function skipReason(tree: RunTree, { errorLimit }: { errorLimit: boolean }): string | undefined {
  if (errorLimit) return 'too many executions in a row failed';
  if (tree.timeLeft() <= 0) return 'the time limit for this run has passed';
  if (tree.budgetExhausted) return 'the token budget is spent';
  if (tree.aborted()) return 'the run was cancelled';
  return undefined;
}
