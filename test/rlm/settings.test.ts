import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { getPromptVersion } from '../../src/rlm/prompts/index.js';
import { resolveSettings } from '../../src/rlm/settings.js';

describe('resolveSettings', () => {
  it('v0.2 defaults (the default version)', () => {
    const s = resolveSettings({});
    expect(s.version.id).toBe('v0.2');
    expect(s).toMatchObject({
      maxIterations: 30,
      outputTruncateChars: 20_000,
      maxSubcallsPerRun: 256,
      maxSubcallsPerExec: 64,
      maxTimeoutMs: 3_600_000,
      maxDepth: 1,
      maxErrors: 3,
      continueCutReplies: true,
      subcallChars: 12_000,
    });
    expect(s.root).toMatchObject({ maxTokens: 8192, timeoutMs: 900_000 });
    expect(s.sub).toMatchObject({ maxTokens: 4096, timeoutMs: 900_000 });
  });

  it('memory headroom: 4 GiB by default, the profile next, an override first; under 64 MiB refused', () => {
    const MiB = 1024 * 1024;
    expect(resolveSettings({}).memoryHeadroomBytes).toBe(4096 * MiB);
    const run = { memoryHeadroomMb: 300 };
    expect(resolveSettings({ run }).memoryHeadroomBytes).toBe(300 * MiB);
    expect(
      resolveSettings({ run, overrides: { memoryHeadroomMb: 1024 } }).memoryHeadroomBytes,
    ).toBe(1024 * MiB);
    for (const bad of [63, 0, 1.5]) {
      expect(() => resolveSettings({ overrides: { memoryHeadroomMb: bad } })).toThrow(
        /memory_headroom_mb must be a whole number of MiB of at least 64/,
      );
    }
  });

  it('v0.2 root max_tokens is 4,096 with thinking off', () => {
    expect(resolveSettings({ overrides: { thinking: false } }).root.maxTokens).toBe(4096);
  });

  it('v0.2 derives the per-call size from the sub window', () => {
    const s = resolveSettings({ sub: { contextTokens: 32_768, maxTokens: 2048 } });
    expect(s.subcallChars).toBe(78_336);
  });

  it('v0.1 defaults', () => {
    const s = resolveSettings({
      overrides: { promptVersion: 'v0.1' },
      sub: { contextTokens: 32_768 },
    });
    expect(s).toMatchObject({
      maxIterations: 20,
      outputTruncateChars: 2000,
      maxSubcallsPerRun: 64,
      maxSubcallsPerExec: 24,
      maxTimeoutMs: 1_800_000,
      subcallChars: 12_000,
      continueCutReplies: false,
    });
    expect(s.root.maxTokens).toBe(4096);
    expect(s.sub).toMatchObject({ maxTokens: 2048, timeoutMs: 300_000 });
  });

  it('explicit values win over profile values, which win over version defaults', () => {
    const s = resolveSettings({
      run: { maxIterations: 12, promptVersion: 'v0.1', subcallChars: 5000 },
      root: { maxTokens: 1000, timeoutSeconds: 10 },
      overrides: { maxIterations: 7, maxTimeout: 2 },
    });
    expect(s.maxIterations).toBe(7);
    expect(s.version.id).toBe('v0.1');
    expect(s.subcallChars).toBe(5000);
    expect(s.root).toMatchObject({ maxTokens: 1000, timeoutMs: 10_000 });
    expect(s.maxTimeoutMs).toBe(2000);
  });

  it('refuses bad values and unknown versions with a clear message', () => {
    expect(() => resolveSettings({ overrides: { maxIterations: 0 } })).toThrow(/max_iterations/);
    expect(() => resolveSettings({ overrides: { promptVersion: 'v9' } })).toThrow(ConfigError);
    expect(() => resolveSettings({ overrides: { plannerStyle: 'upstream' } })).toThrow(
      /Unknown planner style "upstream".*reclamo or upstream-rlm-v0/,
    );
  });

  it('takes the protocol, planner style and system prompt file from flags over the profile', () => {
    const s = resolveSettings({
      run: { protocol: 'fence', plannerStyle: 'reclamo', systemPromptFile: '/p/profile.txt' },
      overrides: { protocol: 'tools', systemPromptFile: '/p/flag.txt' },
    });
    expect(s).toMatchObject({
      protocol: 'tools',
      plannerStyle: 'reclamo',
      systemPromptFile: '/p/flag.txt',
    });
    expect(resolveSettings({})).toMatchObject({ protocol: 'fence', plannerStyle: 'reclamo' });
    expect(resolveSettings({ run: { plannerStyle: 'upstream-rlm-v0' } }).plannerStyle).toBe(
      'upstream-rlm-v0',
    );
  });

  it('refuses the tools protocol with the upstream planner style, from any source', () => {
    expect(() =>
      resolveSettings({ overrides: { protocol: 'tools', plannerStyle: 'upstream-rlm-v0' } }),
    ).toThrow(/tools protocol is not available with planner style upstream-rlm-v0.*Fix/);
    expect(() =>
      resolveSettings({
        run: { plannerStyle: 'upstream-rlm-v0' },
        overrides: { protocol: 'tools' },
      }),
    ).toThrow(ConfigError);
  });
});

describe('prompt versions', () => {
  const options = {
    subcallChars: 78_336,
    maxSubcallsPerExec: 64,
    maxSubcallsPerRun: 256,
    outputTruncateChars: 20_000,
    childRlm: false,
    execTimeoutSeconds: 120,
  };

  it('v0.2 encourages sub-calls, states the caps and the derived size', () => {
    const text = getPromptVersion('v0.2').system(options);
    expect(text).toContain('78,336');
    expect(text).toContain('256');
    expect(text).toMatch(/orchestrator/);
    expect(text).not.toContain('rlm_query');
    expect(getPromptVersion('v0.2').system({ ...options, childRlm: true })).toContain('rlm_query(');
  });

  it('v0.1 says sub-calls are expensive', () => {
    const text = getPromptVersion('v0.1').system({ ...options, subcallChars: 12_000 });
    expect(text).toMatch(/expensive/);
    expect(text).toContain('12,000');
  });
});
