/**
 * `run()`: the root RLM. Orchestration only: check the question, resolve the
 * context, settle the profile and settings, start the REPL while the models
 * are wired, run the root RLM of the tree, and return its result.
 */
import { randomBytes } from 'node:crypto';
import { requireText } from '../context/require-text.js';
import { resolveContext } from '../context/resolve.js';
import { ConfigError } from '../errors.js';
import { runRlm } from './loop/run-rlm.js';
import { type StartedSandbox, startSandbox } from './loop/start-sandbox.js';
import { profileRecord } from './profile-record.js';
import { modelsOf } from './run-models.js';
import type { RunOptions } from './run-options.js';
import { type RunResult, runResult } from './run-result.js';
import { prepareRun } from './run-setup.js';
import { RunTree } from './run-tree.js';

export type { RunOptions } from './run-options.js';
export { RunError, type RunResult } from './run-result.js';
export type { RunStatus } from './run-tree.js';

/**
 * Runs an RLM over a context until it answers. Limits end in a forced finish
 * and still return; an endpoint or sandbox failure throws RunError carrying
 * the partial result.
 */
export async function run(options: RunOptions): Promise<RunResult> {
  if (typeof options.query !== 'string' || options.query.trim() === '') {
    throw new ConfigError(
      'The question is empty. Pass the question to answer with -q/--query (query in code).',
    );
  }
  const now = options._internal?.now ?? (() => performance.timeOrigin + performance.now());
  const generateId = options._internal?.generateId ?? (() => randomBytes(3).toString('hex'));
  const context = await resolveContext(options.context);
  let started: StartedSandbox | undefined;
  try {
    const { profile, settings, systemPrompt, python } = await prepareRun(options);
    // The worker starts loading the context while the model layer is set up.
    started = startSandbox(context.source, settings, python);
    const wired = await modelsOf(options, profile);
    const given = typeof options.context === 'string' ? options.context : undefined;
    const source = context.source;
    if (source.kind === 'file' || source.kind === 'directory') {
      requireText(source, (await started.sandbox).contextShape, given ?? source.path);
    }
    const tree = new RunTree({
      settings,
      models: wired.models,
      endpoints: wired.endpoints,
      profile: profile ? profileRecord(profile) : { name: '(models)', settings: {} },
      logDir: options.logDir ?? 'runs',
      sft: options.sft === true,
      now,
      generateId,
      ...(python !== undefined ? { python } : {}),
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      ...(options.onStatus ? { onStatus: options.onStatus } : {}),
    });
    const root = await runRlm(tree, { query: options.query, context: source, depth: 0, started });
    started = undefined;
    return runResult(tree, root);
  } finally {
    // A REPL started for a run that failed before its loop took it over.
    if (started) await started.sandbox.then((sb) => sb.close()).catch(() => {});
    await context.cleanup();
  }
}
