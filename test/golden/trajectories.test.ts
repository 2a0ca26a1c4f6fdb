/**
 * Trajectories and requests of every scripted scenario stay byte-identical.
 * Each scenario runs through the real harness with injected ids and clock; its
 * record is compared with test/fixtures/golden/<name>.txt. After a change that
 * is meant to alter a trajectory, rewrite the fixtures with
 * `GOLDEN_UPDATE=1 npx vitest run test/golden` and review their diff.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from './run-scenario.js';
import { GOLDEN_ARTIFACTS, type Scenario } from './scenario-kit.js';
import { budgetScenarios } from './scenarios-budget.js';
import { fenceScenarios } from './scenarios-fence.js';
import { layoutScenarios } from './scenarios-layouts.js';

const FIXTURES = resolve('test/fixtures/golden');
const update = process.env.GOLDEN_UPDATE === '1';

function check(scenario: Scenario) {
  return async () => {
    const actual = await runScenario(scenario);
    const path = join(FIXTURES, `${scenario.name}.txt`);
    if (update) {
      mkdirSync(FIXTURES, { recursive: true });
      writeFileSync(path, actual);
      return;
    }
    if (!existsSync(path)) throw new Error(`no golden record ${path}; run with GOLDEN_UPDATE=1`);
    const expected = readFileSync(path, 'utf8');
    if (actual !== expected) {
      // Keep the new record next to the scenario's files for a diff against the fixture.
      writeFileSync(join(GOLDEN_ARTIFACTS, `${scenario.name}.actual.txt`), actual);
    }
    expect(actual).toBe(expected);
  };
}

describe.each([
  ['fence protocol, sub-calls and limits', fenceScenarios],
  ['tools protocol and upstream layout', layoutScenarios],
  ['context budget, eval policies and HTTP', budgetScenarios],
])('golden trajectories: %s', (_title, scenarios) => {
  for (const scenario of scenarios) {
    it(
      `${scenario.name} records the same trajectory and requests as its fixture`,
      check(scenario),
      60_000,
    );
  }
});
