/** Per-call model routing: the outermost call's model and effort hold for the whole subtree. */
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/config/load.js';
import { infer } from '../../src/infer/infer.js';
import { map } from '../../src/infer/map.js';
import { type MockServer, startMockServer } from '../../src/testing/mock-server.js';
import { writeMockProfile } from '../support/run-built-cli.js';
import { tempLogDir } from './helpers.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('routing', () => {
  it('a profile role, a model name on the profile endpoint, or the root role by default', async () => {
    server = await startMockServer({ policy: (request) => `from ${request.model}` });
    const file = writeMockProfile(tempLogDir('profile'), { baseUrl: server.url });
    const profile = await loadProfile({ profile: 'mock', file, env: {} });
    expect(await infer('q', { profile, logDir: false })).toBe('from root-model');
    expect(await infer('q', { profile, model: 'sub', logDir: false })).toBe('from sub-model');
    expect(await infer('q', { profile, model: 'other-model', effort: 'high', logDir: false })).toBe(
      'from other-model',
    );
    expect(server.requests.at(-1)?.body.reasoning_effort).toBe('high');
  });

  it('a map routed to one model sends every frame there', async () => {
    server = await startMockServer({ policy: (request) => `from ${request.model}` });
    const file = writeMockProfile(tempLogDir('profile-map'), { baseUrl: server.url });
    const profile = await loadProfile({ profile: 'mock', file, env: {} });
    const results = await map(['a', 'b', 'c'], { profile, model: 'mapped-model', logDir: false });
    expect(results.map((r) => (r.status === 'ok' ? r.value : r.status))).toEqual([
      'from mapped-model',
      'from mapped-model',
      'from mapped-model',
    ]);
    expect(new Set(server.requests.map((r) => r.model))).toEqual(new Set(['mapped-model']));
  });
});
