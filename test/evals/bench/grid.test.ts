import { describe, expect, it } from 'vitest';
import { gridCells, parseSizeSpecs } from '../../../src/evals/bench/grid.js';
import { getTask } from '../../../src/evals/tasks/index.js';

describe('bench grid', () => {
  it('reads sizes for every task or for one', () => {
    expect(parseSizeSpecs(['1000,2_000'], ['needle', 'nested'])).toEqual({
      needle: [1000, 2000],
      nested: [1000, 2000],
    });
    expect(parseSizeSpecs(['100', 'needle=5000'], ['needle', 'oolong-lite'])).toEqual({
      needle: [5000],
      'oolong-lite': [100],
    });
    expect(() => parseSizeSpecs(['nested=4'], ['needle'])).toThrow(/not in --tasks/);
    expect(() => parseSizeSpecs(['10,abc'], ['needle'])).toThrow(/bad size "abc"/);
  });

  it('walks tasks, then sizes, then seeds, with default sizes per task', () => {
    const cells = gridCells([getTask('needle'), getTask('oolong-lite')], { needle: [10] }, 2);
    expect(cells.map((c) => `${c.task}:${c.size}:${c.seed}`)).toEqual([
      'needle:10:0',
      'needle:10:1',
      'oolong-lite:100:0',
      'oolong-lite:100:1',
      'oolong-lite:300:0',
      'oolong-lite:300:1',
      'oolong-lite:1000:0',
      'oolong-lite:1000:1',
    ]);
  });
});
