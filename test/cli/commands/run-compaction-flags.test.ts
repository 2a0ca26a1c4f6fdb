/**
 * `--compaction-threshold-pct` and `--hard-ceiling-pct` on `reclamo run`: the
 * built CLI as a child process against the mock server with the real worker.
 * The trajectory's metadata records the values, they move the budget, a flag
 * wins over the profile, and bad values exit 2 naming the flag and the range.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockPolicy, MockServer } from '../../../src/testing/index.js';
import { startMockServer } from '../../../src/testing/index.js';
import type { MetadataEvent, TrajectoryEvent } from '../../../src/trace/events.js';
import { readTrajectory } from '../../../src/trace/reader.js';
import { freshDir, needleFile } from '../../rlm/helpers.js';
import { type CliResult, runCli, writeMockProfile } from '../../support/run-built-cli.js';

const dir = freshDir('cli-run-compaction-flags');
const WINDOW = 32_768;
let server: MockServer;
let policy: MockPolicy = () => 'FINAL(unset)';

function profileFile(extra = ''): string {
  return writeMockProfile(dir, {
    baseUrl: server.url,
    apiKeyEnv: 'RECLAMO_TEST_KEY',
    settings: { concurrency: 2, context_tokens: WINDOW, max_tokens: 1024 },
    extra,
  });
}

function cli(args: string[], profile = profileFile()): Promise<CliResult> {
  return runCli(
    [
      'run',
      '--profile',
      'mock',
      '--log-dir',
      join(dir, 'runs'),
      '--context',
      needleFile(dir),
      '-q',
      'Which line holds the passphrase?',
      '--json',
      ...args,
    ],
    { home: dir, profiles: profile, env: { RECLAMO_TEST_KEY: 'sk-test-compaction-key' } },
  );
}

async function trajectoryOf(res: CliResult): Promise<TrajectoryEvent[]> {
  expect(res.code, res.stderr).toBe(0);
  const { trajectoryPath } = JSON.parse(res.stdout) as { trajectoryPath: string };
  const { events, errors } = await readTrajectory(trajectoryPath);
  expect(errors).toEqual([]);
  return events;
}

const metadataOf = (events: TrajectoryEvent[]) =>
  events.find((e): e is MetadataEvent => e.type === 'metadata');

/** Two turns that each print 20,000 characters (about 5,700 estimated tokens), then an answer. */
const bigOutputs: MockPolicy = (r) => {
  if (r.model !== 'root-model') return 'summary of the earlier turns';
  const turn = r.messages.filter((m) => m.role === 'assistant').length + 1;
  // Letters, not digits: the heuristic estimator counts every digit as a token.
  return turn <= 2 ? `\`\`\`repl\nprint('${'ab'[turn - 1]}' * 20000)\n\`\`\`` : 'FINAL(done)';
};

beforeAll(async () => {
  server = await startMockServer({ policy: (r) => policy(r) });
});
afterAll(async () => {
  await server.close();
});

describe('reclamo run --compaction-threshold-pct / --hard-ceiling-pct', () => {
  it('records both values in the metadata and derives the budget from them', async () => {
    policy = () => 'FINAL(tangerine-42)';
    const events = await trajectoryOf(
      await cli(['--compaction-threshold-pct', '0.3', '--hard-ceiling-pct', '0.6']),
    );
    expect(metadataOf(events)?.contextBudget).toEqual({
      contextTokens: WINDOW,
      maxTokens: 1024,
      limitTokens: Math.floor(0.6 * WINDOW),
      compactAtTokens: Math.floor(0.3 * WINDOW),
      compactionThresholdPct: 0.3,
      hardCeilingPct: 0.6,
    });
  });

  it('a flag wins over the profile; the profile value shows when no flag is given', async () => {
    policy = () => 'FINAL(tangerine-42)';
    const profile = profileFile('compaction_threshold_pct = 0.6\nhard_ceiling_pct = 0.8');
    const fromProfile = metadataOf(await trajectoryOf(await cli([], profile)));
    expect(fromProfile?.contextBudget).toMatchObject({
      compactionThresholdPct: 0.6,
      hardCeilingPct: 0.8,
    });
    const flagged = metadataOf(
      await trajectoryOf(await cli(['--compaction-threshold-pct', '0.25'], profile)),
    );
    expect(flagged?.contextBudget).toMatchObject({
      compactionThresholdPct: 0.25,
      hardCeilingPct: 0.8,
      compactAtTokens: Math.floor(0.25 * WINDOW),
    });
    const unset = metadataOf(await trajectoryOf(await cli([])))?.contextBudget;
    expect(unset).not.toHaveProperty('compactionThresholdPct');
    expect(unset).not.toHaveProperty('hardCeilingPct');
  });

  it('a low threshold makes the run compact where the default does not', async () => {
    policy = bigOutputs;
    const plain = await trajectoryOf(await cli([]));
    expect(plain.filter((e) => e.type === 'compaction')).toEqual([]);
    const low = await trajectoryOf(await cli(['--compaction-threshold-pct', '0.2']));
    const compactions = low.filter((e) => e.type === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]).toMatchObject({ compactAtTokens: Math.floor(0.2 * WINDOW) });
    const last = low.filter((e) => e.type === 'final').at(-1);
    expect(last).toMatchObject({ answer: 'done' });
  });

  it('bad values exit 2 naming the flag and the valid range', async () => {
    const cases: [string[], RegExp][] = [
      [['--compaction-threshold-pct', '70'], /--compaction-threshold-pct .*between 0 and 1/],
      [['--compaction-threshold-pct', '1'], /--compaction-threshold-pct .*between 0 and 1/],
      [['--compaction-threshold-pct', 'abc'], /--compaction-threshold-pct .*between 0 and 1/],
      [['--hard-ceiling-pct', '0'], /--hard-ceiling-pct .*above 0 and at most 1/],
      [['--hard-ceiling-pct', '1.5'], /--hard-ceiling-pct .*above 0 and at most 1/],
      [
        ['--compaction-threshold-pct', '0.9', '--hard-ceiling-pct', '0.8'],
        /compaction_threshold_pct \(0\.9\) must be below hard_ceiling_pct \(0\.8\).*--hard-ceiling-pct/,
      ],
    ];
    const before = server.requests.length;
    for (const [args, message] of cases) {
      const res = await cli(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(message);
      expect(res.stdout).toBe('');
    }
    expect(server.requests.length).toBe(before);
  });
});
