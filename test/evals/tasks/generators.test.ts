import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contextText } from '../../../src/evals/context-file.js';
import { BUILTIN_TASKS, getTask } from '../../../src/evals/tasks/index.js';

function digest(task: string, size: number, seed: number): string {
  const instance = getTask(task).generate({ size, seed });
  return createHash('sha256')
    .update(instance.question)
    .update(contextText(instance.context))
    .update(JSON.stringify(instance.truth))
    .digest('hex');
}

const SMALL: Record<string, number> = {
  needle: 2_000,
  'oolong-lite': 100,
  'longdoc-qa': 30,
  nested: 4,
};

describe('task generators', () => {
  for (const task of BUILTIN_TASKS) {
    const size = SMALL[task.name] ?? 10;
    it(`${task.name} is deterministic in its seed`, () => {
      expect(digest(task.name, size, 7)).toBe(digest(task.name, size, 7));
      expect(digest(task.name, size, 7)).not.toBe(digest(task.name, size, 8));
    });
  }

  it('rejects an unknown task name with the list of known ones', () => {
    expect(() => getTask('haystack')).toThrow(/unknown task "haystack".*needle, oolong-lite/);
  });

  it('needle puts exactly one passphrase line at the recorded line', () => {
    const instance = getTask('needle').generate({ size: 5_000, seed: 3 });
    const lines = contextText(instance.context).split('\n');
    expect(lines.filter((l) => l.includes('secret passphrase'))).toHaveLength(1);
    const truth = instance.truth as { passphrase: string; line: number };
    expect(lines[truth.line]).toContain(truth.passphrase);
    expect(lines.filter((l) => l.includes('expired passphrase'))).toHaveLength(3);
    expect(lines.filter((l) => l.length > 0)).toHaveLength(5_000);
  });

  it('longdoc-qa states each asked owner and office in different sections', () => {
    const instance = getTask('longdoc-qa').generate({ size: 60, seed: 1 });
    const sections = contextText(instance.context).split(/^## /m).slice(1);
    expect(sections).toHaveLength(60);
    const truth = instance.truth as {
      questions: {
        project: string;
        owner: string;
        city: string;
        ownerSection: number;
        officeSection: number;
      }[];
    };
    expect(truth.questions).toHaveLength(3);
    for (const q of truth.questions) {
      expect(q.ownerSection).not.toBe(q.officeSection);
      expect(sections[q.ownerSection - 1]).toContain(q.owner);
      expect(sections[q.officeSection - 1]).toContain(`${q.owner}`);
      expect(sections[q.officeSection - 1]).toContain(q.city);
      expect(instance.question).toContain(q.project);
    }
  });

  it('nested writes one log per department in four distinct line formats', () => {
    const instance = getTask('nested').generate({ size: 12, seed: 0 });
    if (instance.context.kind !== 'dict') throw new Error('nested context must be a dict');
    const files = instance.context.files;
    expect(Object.keys(files)).toHaveLength(12);
    const shapeOf = (line: string): string =>
      line.startsWith('{')
        ? 'json'
        : line.startsWith('[')
          ? 'bracket'
          : /^\d{4}-\d\d-\d\d /.test(line)
            ? 'pipes'
            : /^\d+;[ocr];/.test(line)
              ? 'semicolons'
              : `unknown: ${line}`;
    const shapes = new Set(Object.values(files).map((text) => shapeOf(text.split('\n')[0] ?? '')));
    expect([...shapes].sort()).toEqual(['bracket', 'json', 'pipes', 'semicolons']);
    const truth = instance.truth as { counts: Record<string, number>; most: string };
    const top = Math.max(...Object.values(truth.counts));
    expect(truth.counts[truth.most]).toBe(top);
    expect(Object.values(truth.counts).filter((n) => n === top)).toHaveLength(1);
  });

  it('rejects bad sizes with a message naming the task', () => {
    expect(() => getTask('needle').generate({ size: 3 })).toThrow(/needle: size/);
    expect(() => getTask('nested').generate({ size: 40 })).toThrow(/nested: size/);
  });
});
