/** Runs the loop against the mock OpenAI-compatible server over real HTTP, with the real worker. */
import { join } from 'node:path';
import type { ResolvedProfile } from '../../src/config/types.js';
import { type RunOptions, type RunResult, run } from '../../src/rlm/run.js';
import type { MockRequest, MockServer } from '../../src/testing/index.js';
import type { TrajectoryEvent } from '../../src/trace/events.js';
import { readTrajectory } from '../../src/trace/reader.js';
import { freshDir, needleFile } from './helpers.js';

export const MOCK_KEY = 'sk-test-proto-key';

/** A profile whose two roles talk to the mock server (root-model and sub-model). */
export function mockProfile(server: MockServer): ResolvedProfile {
  const role = (model: string) => ({
    baseUrl: server.url,
    api: 'openai' as const,
    apiKeyEnv: 'RECLAMO_PROTO_TEST_KEY',
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

export interface MockRun {
  result: RunResult;
  events: TrajectoryEvent[];
  /** Root-model requests the server recorded, in order. */
  rootRequests: MockRequest[];
  dir: string;
}

export async function runAgainstMock(
  name: string,
  server: MockServer,
  options: Partial<RunOptions> = {},
): Promise<MockRun> {
  const dir = freshDir(name);
  const before = server.requests.length;
  const result = await run({
    query: 'Which line holds the passphrase?',
    context: needleFile(dir),
    profile: mockProfile(server),
    env: { RECLAMO_PROTO_TEST_KEY: MOCK_KEY },
    logDir: join(dir, 'runs'),
    ...options,
  });
  const { events, errors } = await readTrajectory(result.trajectoryPath);
  if (errors.length > 0) throw new Error(`trajectory errors: ${JSON.stringify(errors)}`);
  const rootRequests = server.requests.slice(before).filter((r) => r.model === 'root-model');
  return { result, events, rootRequests, dir };
}
