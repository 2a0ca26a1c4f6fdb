/**
 * Runs one golden scenario through the real harness (loop, Python worker,
 * trajectory writer) with injected ids and clock, and returns its record as
 * text: the result, every trajectory line of the run tree, and every request
 * each model received.
 */
import { join } from 'node:path';
import type { ResolvedProfile } from '../../src/config/types.js';
import { RunError, type RunOptions, type RunResult, run } from '../../src/rlm/run.js';
import { type MockServer, type ScriptedModel, startMockServer } from '../../src/testing/index.js';
import { requestLines, trajectoryLines } from './recorder.js';
import {
  clockedModel,
  freshScenarioDir,
  needleFile,
  ROOT_STEP_MS,
  recordGenerate,
  recordMock,
  type Scenario,
  type ScenarioEnv,
  START,
  SUB_STEP_MS,
} from './scenario-kit.js';

const KEY_ENV = 'RECLAMO_GOLDEN_KEY';

export async function runScenario(scenario: Scenario): Promise<string> {
  const dir = freshScenarioDir(scenario.name);
  let clock = START;
  const env: ScenarioEnv = {
    dir,
    now: () => clock,
    advance: (ms) => {
      clock += ms;
    },
  };
  let ids = 0;
  const generateId = () => `g${String(++ids).padStart(5, '0')}`;
  const context = scenario.context ? await scenario.context(env) : needleFile(dir);
  const base: RunOptions = {
    query: scenario.query ?? 'Which line holds the passphrase?',
    context,
    logDir: join(dir, 'runs'),
    _internal: { now: env.now, generateId },
  };
  let server: MockServer | undefined;
  let models: { root: ScriptedModel; sub: ScriptedModel } | undefined;
  try {
    let options: RunOptions;
    if (scenario.http) {
      server = await startMockServer({ policy: scenario.http.policy });
      options = { ...base, profile: httpProfile(server), env: { [KEY_ENV]: 'sk-golden' } };
    } else {
      const names = scenario.modelIds ?? { root: 'root-model', sub: 'sub-model' };
      models = {
        root: clockedModel(scenario.root ?? 'FINAL(none)', env, ROOT_STEP_MS, {
          modelId: names.root,
          endpoint: 'scripted://root',
        }),
        sub: clockedModel(scenario.sub ?? 'sub answer', env, SUB_STEP_MS, {
          modelId: names.sub,
          endpoint: 'scripted://sub',
        }),
      };
      options = { ...base, models };
    }
    const { result, error } = await runCatching({ ...options, ...scenario.options?.(env) });
    const requests = server
      ? {
          root: server.requests.filter((r) => r.model === 'root-model').map(recordMock),
          sub: server.requests.filter((r) => r.model !== 'root-model').map(recordMock),
        }
      : {
          root: models?.root.calls.map(recordGenerate) ?? [],
          sub: models?.sub.calls.map(recordGenerate) ?? [],
        };
    return [
      '# result',
      JSON.stringify(summary(result, error)),
      ...trajectoryLines(result.trajectoryPath, result.sftPath),
      ...requestLines('root', requests.root),
      ...requestLines('sub', requests.sub),
      '',
    ].join('\n');
  } finally {
    await server?.close();
  }
}

async function runCatching(options: RunOptions): Promise<{ result: RunResult; error?: string }> {
  try {
    return { result: await run(options) };
  } catch (error) {
    if (error instanceof RunError) return { result: error.result, error: error.message };
    throw error;
  }
}

/** The result without its file paths (they name this machine's folders). */
function summary(result: RunResult, error: string | undefined): Record<string, unknown> {
  const { trajectoryPath: _t, sftPath: _s, ...rest } = result;
  return error === undefined ? rest : { ...rest, error };
}

function httpProfile(server: MockServer): ResolvedProfile {
  const role = (model: string) => ({
    baseUrl: server.url,
    api: 'openai' as const,
    apiKeyEnv: KEY_ENV,
    concurrency: 2,
    model,
    sampling: {},
    contextTokens: 32_768,
    maxTokens: 1024,
  });
  return {
    name: 'mock',
    source: 'test',
    root: role('root-model'),
    sub: role('sub-model'),
    run: {},
  };
}
