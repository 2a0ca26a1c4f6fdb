/** Loading a LongBench v2 folder (markdown layout) and running its items through the bench modes. */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { type BenchOptions, type BenchResult, runBench } from '../bench/bench.js';
import type { GridCell } from '../bench/grid.js';
import { EvalConfigError } from '../errors.js';
import type { TaskInstance } from '../task.js';
import { extractChoice } from './choice.js';
import { itemQuestion, type LongBenchV2Item, parseItemMarkdown } from './item.js';

/** Every item in the folder, sorted by file name; an item without its context file is an error. */
export async function loadLongBenchV2(dir: string): Promise<LongBenchV2Item[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    throw new EvalConfigError(
      `--dir ${dir}: no such folder. Fix: point it at a folder of LongBench v2 items (<stem>.md and <stem>_context.txt).`,
    );
  }
  const stems = names
    .filter((n) => n.endsWith('.md') && !n.startsWith('.') && n.toLowerCase() !== 'readme.md')
    .map((n) => n.slice(0, -3))
    .sort();
  const items: LongBenchV2Item[] = [];
  for (const stem of stems) {
    const contextName = `${stem}_context.txt`;
    if (!names.includes(contextName)) {
      throw new EvalConfigError(`${join(dir, `${stem}.md`)} has no ${contextName} beside it`);
    }
    const file = join(dir, `${stem}.md`);
    items.push(parseItemMarkdown(await readFile(file, 'utf8'), file, join(dir, contextName)));
  }
  if (items.length === 0)
    throw new EvalConfigError(`--dir ${dir}: no LongBench v2 items (*.md) in it`);
  return items;
}

export interface ItemSelection {
  /** Domains to keep (case-insensitive; a prefix is enough). */
  domains?: string[];
  difficulty?: string;
  length?: string;
}

export function selectItems(
  items: readonly LongBenchV2Item[],
  s: ItemSelection,
): LongBenchV2Item[] {
  const lower = (v: string | undefined) => (v ?? '').toLowerCase();
  return items.filter(
    (item) =>
      (!s.domains || s.domains.some((d) => lower(item.domain).startsWith(lower(d)))) &&
      (!s.difficulty || lower(item.difficulty) === lower(s.difficulty)) &&
      (!s.length || lower(item.length) === lower(s.length)),
  );
}

/** The instance of an item: its document, the question with choices, scored by the exact letter. */
export async function v2Instance(item: LongBenchV2Item): Promise<TaskInstance<string>> {
  const context = await readFile(item.contextFile, 'utf8');
  return {
    task: item.domain,
    size: item.length ?? '',
    seed: 0,
    question: itemQuestion(item),
    context: { kind: 'text', chunks: [context] },
    truth: item.answer,
    score(answer) {
      const picked = extractChoice(answer);
      const exact = picked === item.answer;
      return {
        score: exact ? 1 : 0,
        exact,
        summary: picked === undefined ? 'no choice' : exact ? 'right' : `chose ${picked}`,
      };
    },
  };
}

export function v2Cells(items: readonly LongBenchV2Item[]): GridCell[] {
  return items.map((item) => ({
    task: item.domain,
    unit: '',
    size: item.length ?? '',
    seed: 0,
    item: item.id,
    tags: {
      file: basename(item.file),
      chance: 0.25,
      ...(item.difficulty ? { difficulty: item.difficulty } : {}),
      ...(item.subdomain ? { subdomain: item.subdomain } : {}),
    },
    instance: () => v2Instance(item),
  }));
}

export interface LongBenchV2RunOptions
  extends Omit<BenchOptions, 'tasks' | 'cells' | 'sizes' | 'seeds'> {
  dir: string;
  select?: ItemSelection;
}

export async function runLongBenchV2(options: LongBenchV2RunOptions): Promise<BenchResult> {
  const { dir, select, ...bench } = options;
  const items = selectItems(await loadLongBenchV2(dir), select ?? {});
  if (items.length === 0) {
    throw new EvalConfigError(
      `no LongBench v2 items in ${dir} match --domain / --difficulty / --length`,
    );
  }
  return runBench({
    ...bench,
    cells: v2Cells(items),
    meta: { dataset: 'LongBench v2', dir, ...bench.meta },
  });
}
