/**
 * Opening a loop once its REPL is up: the `metadata` record, the `question`
 * variable, the system prompt and opening messages, and the REPL's history.
 */
import type { TokenEstimator } from '../../lm/tokens/index.js';
import { turnLine } from '../prompts/messages.js';
import type { LoopRun } from './rlm-state.js';

/** Writes the opening record and messages of `run` (whose REPL is up). */
export async function openLoop(
  run: LoopRun,
  runId: string,
  estimator: TokenEstimator,
): Promise<void> {
  const { shared, input, state, sandbox, emit } = run;
  const o = shared.o;
  const s = shared.settings;
  emit({
    type: 'metadata',
    runId,
    query: input.query,
    context: sandbox.contextShape,
    depth: input.depth,
    maxDepth: s.maxDepth,
    profile: o.profile,
    endpoints: o.endpoints,
    promptVersion: s.version.id,
    protocol: s.protocol,
    plannerStyle: s.plannerStyle,
    estimator: estimator.name,
    contextBudget: {
      contextTokens: s.budget.contextTokens,
      maxTokens: s.budget.maxTokens,
      limitTokens: s.budget.limitTokens,
      compactAtTokens: s.budget.compactAtTokens,
      ...(s.budget.compactionThresholdPct !== undefined
        ? { compactionThresholdPct: s.budget.compactionThresholdPct }
        : {}),
      ...(s.budget.hardCeilingPct !== undefined ? { hardCeilingPct: s.budget.hardCeilingPct } : {}),
    },
    ...(input.parent ? { parent: input.parent } : {}),
  });
  await sandbox.setVariable('question', input.query);
  const system =
    o.systemPrompt ??
    state.protocol.systemPrompt(s.version, {
      subcallChars: s.subcallChars,
      maxSubcallsPerExec: s.maxSubcallsPerExec,
      maxSubcallsPerRun: s.maxSubcallsPerRun,
      outputTruncateChars: s.outputTruncateChars,
      childRlm: input.depth + 1 < s.maxDepth,
      execTimeoutSeconds: s.execTimeoutMs / 1000,
    });
  state.history.push(
    { role: 'system', content: system },
    ...state.protocol.opening(sandbox.contextShape, input.query, turnLine(1, s.maxIterations)),
  );
  state.opening = state.history.slice();
  state.keeper.addFixed(state.history.length);
  await state.keeper.syncHistory(sandbox);
}
