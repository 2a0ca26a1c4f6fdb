import { describe, expect, it } from 'vitest';
import { plainPromptTokens } from '../../../src/evals/bench/plain-row.js';
import { contextText } from '../../../src/evals/context-file.js';
import { plainMessages } from '../../../src/evals/plain-prompt.js';
import { getTask } from '../../../src/evals/tasks/index.js';
import { heuristicEstimator } from '../../../src/lm/tokens/estimator.js';
import { countRequest } from '../../../src/lm/tokens/messages.js';

describe('plain prompt estimate', () => {
  it('equals the shared heuristic over the prompt as sent, within rounding, without building it', () => {
    for (const [task, size] of [
      ['needle', 3_000],
      ['oolong-lite', 200],
      ['nested', 3],
    ] as const) {
      const instance = getTask(task).generate({ size, seed: 0 });
      const sent = countRequest(
        plainMessages(contextText(instance.context), instance.question),
        heuristicEstimator,
      );
      const estimate = plainPromptTokens(instance);
      expect(Math.abs(estimate - sent), task).toBeLessThanOrEqual(2);
    }
  });
});
