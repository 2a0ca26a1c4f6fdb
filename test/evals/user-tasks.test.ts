import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adaptUserTask, loadUserTasks } from '../../src/evals/user-tasks.js';

const dir = join(process.cwd(), '.artifacts/user-tasks');

describe('user task modules', () => {
  it('loads a folder of modules and adapts them to task generators', async () => {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'capital.mjs'),
      `export const question = 'Which city is the capital? Answer with the city only.';
export const sizes = [3, 5];
export function generate({ size, seed }) {
  const lines = Array.from({ length: size }, (_, i) => 'filler line ' + i);
  lines.splice(seed % size, 0, 'The capital is Lisbon.');
  return { context: lines.join('\\n'), truth: 'Lisbon' };
}
export function score(answer, truth) { return answer.trim() === truth; }
`,
    );
    await writeFile(
      join(dir, 'dict.js'),
      `export default { name: 'files', generate: () => ({ context: { 'a.txt': 'x', 'b.txt': 'y' }, question: 'How many files?', truth: 2 }), score: (a, t) => ({ score: Number(a) === t ? 1 : 0, summary: 'counted' }) };\n`,
    );
    await writeFile(join(dir, 'notes.txt'), 'not a module');
    const tasks = await loadUserTasks(dir);
    expect(tasks.map((t) => t.generator.name)).toEqual(['capital', 'files']);
    expect(tasks[0]?.sizes).toEqual([3, 5]);
    const instance = tasks[0]?.generator.generate({ size: 5, seed: 2 });
    expect(instance?.context).toEqual({
      kind: 'text',
      chunks: [expect.stringContaining('Lisbon')],
    });
    expect(instance?.score('Lisbon')).toMatchObject({ exact: true, score: 1 });
    expect(instance?.score('Porto')).toMatchObject({ exact: false, score: 0 });
    const files = tasks[1]?.generator.generate();
    expect(files?.context).toEqual({ kind: 'dict', files: { 'a.txt': 'x', 'b.txt': 'y' } });
    expect(files?.score('2')).toMatchObject({ exact: true, summary: 'counted' });
  });

  it('names the file and the missing piece when a module is incomplete', () => {
    expect(() => adaptUserTask({ generate: () => ({}) }, '/t/bad.mjs')).toThrow(
      /bad.mjs: a task module must export .*score/,
    );
    const task = adaptUserTask(
      { generate: () => ({ context: 'x' }), score: () => true },
      '/t/q.mjs',
    );
    expect(() => task.generator.generate()).toThrow(/q.mjs: give a question/);
  });

  it('rejects a missing folder with a fix', async () => {
    await expect(loadUserTasks(join(dir, 'nope'))).rejects.toThrow(/no such folder/);
  });
});
