/**
 * Opening an RLM's conversation once its REPL is up: the `metadata` record,
 * the `question` variable, the system prompt and opening messages, and the
 * REPL's history.
 */
import type { TokenEstimator } from '../../lm/tokens/index.js';
import { turnLine } from '../prompts/messages.js';
import type { ActiveRlm } from './rlm-state.js';

/** Writes the opening record and messages of `rlm` (whose REPL is up). */
export async function openConversation(
  rlm: ActiveRlm,
  runId: string,
  estimator: TokenEstimator,
): Promise<void> {
  const { tree, task, conversation, sandbox, emit } = rlm;
  const { settings } = tree;
  const { budget } = settings;
  emit({
    type: 'metadata',
    runId,
    query: task.query,
    context: sandbox.contextShape,
    depth: task.depth,
    maxDepth: settings.maxDepth,
    profile: tree.profile,
    endpoints: tree.endpoints,
    promptVersion: settings.version.id,
    protocol: settings.protocol,
    plannerStyle: settings.plannerStyle,
    estimator: estimator.name,
    contextBudget: {
      contextTokens: budget.contextTokens,
      maxTokens: budget.maxTokens,
      limitTokens: budget.limitTokens,
      compactAtTokens: budget.compactAtTokens,
      ...(budget.compactionThresholdPct !== undefined
        ? { compactionThresholdPct: budget.compactionThresholdPct }
        : {}),
      ...(budget.hardCeilingPct !== undefined ? { hardCeilingPct: budget.hardCeilingPct } : {}),
    },
    ...(task.parent ? { parent: task.parent } : {}),
  });
  await sandbox.setVariable('question', task.query);
  const system =
    tree.systemPrompt ??
    conversation.protocol.systemPrompt(settings.version, {
      subcallChars: settings.subcallChars,
      maxSubcallsPerExec: settings.maxSubcallsPerExec,
      maxSubcallsPerRun: settings.maxSubcallsPerRun,
      outputTruncateChars: settings.outputTruncateChars,
      childRlm: task.depth + 1 < settings.maxDepth,
      execTimeoutSeconds: settings.execTimeoutMs / 1000,
    });
  const firstTurn = turnLine(1, settings.maxIterations);
  conversation.history.push(
    { role: 'system', content: system },
    ...conversation.protocol.opening(sandbox.contextShape, task.query, firstTurn),
  );
  conversation.opening = conversation.history.slice();
  conversation.keeper.addFixed(conversation.history.length);
  await conversation.keeper.syncHistory(sandbox);
}
