/**
 * oolong-lite: support tickets in five categories, written as paraphrases
 * without their category's words, so only reading can classify them. The
 * answer is the count per category, scored by absolute error.
 */
import { extractJsonObject } from '../answer-parse.js';
import type { Prng } from '../prng.js';
import type { GenerateOptions, Score, TaskGenerator, TaskInstance } from '../task.js';
import { instanceInputs } from './instance-inputs.js';
import {
  assertParaphrase,
  CATEGORIES,
  CATEGORY_LABELS,
  type Category,
  complaintText,
  parseCategory,
} from './ticket-bank.js';

export interface OolongTruth {
  counts: Record<Category, number>;
  /** Category of each ticket, by ticket id. */
  labels: Record<string, Category>;
}

const FIRST = ['Dana', 'Ravi', 'Mei', 'Tomas', 'Aisha', 'Lena', 'Kofi', 'Iris', 'Omar', 'Sven'];
const LAST = ['Reyes', 'Okafor', 'Lindqvist', 'Tanaka', 'Moreau', 'Haddad', 'Novak', 'Quinn'];

/** A ticket's id as it appears in the context, e.g. `T00042`. */
export function ticketId(index: number): string {
  return `T${String(index + 1).padStart(5, '0')}`;
}

/** Build one ticket line and check the paraphrase rule. */
function ticketLine(rng: Prng, index: number, category: Category): string {
  const day = String(rng.range(1, 28)).padStart(2, '0');
  const month = String(rng.range(1, 12)).padStart(2, '0');
  const name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
  const body = complaintText(rng, category);
  const line = `[${ticketId(index)}] 2026-${month}-${day} | ${name} | ${body}`;
  assertParaphrase(line, category, `oolong-lite: ticket ${ticketId(index)}`);
  return line;
}

function question(size: number): string {
  const list = CATEGORIES.map((c) => `- ${c}: ${CATEGORY_LABELS[c]}`).join('\n');
  return [
    `The context holds ${size} customer support tickets, one per line, each starting with an id in square brackets.`,
    'Every ticket belongs to exactly one of these five categories:',
    list,
    'Count how many tickets fall in each category.',
    'Answer with a JSON object mapping each of the five category names above to its count, e.g. {"billing": 3, "shipping": 5, ...}.',
  ].join('\n');
}

/** Score a counts answer by total absolute error over the categories. */
export function scoreCounts(answer: string, truth: Record<Category, number>): Score {
  const parsed = extractJsonObject(answer);
  const got: Partial<Record<Category, number>> = {};
  if (parsed.ok) {
    for (const [key, value] of Object.entries(parsed.value)) {
      const category = parseCategory(key);
      const n = typeof value === 'number' ? value : Number(value);
      if (category && Number.isFinite(n)) got[category] = n;
    }
  }
  let error = 0;
  const perCategory: Record<string, number> = {};
  for (const category of CATEGORIES) {
    const diff = Math.abs((got[category] ?? 0) - truth[category]);
    perCategory[category] = diff;
    error += diff;
  }
  const total = CATEGORIES.reduce((sum, c) => sum + truth[c], 0);
  if (!parsed.ok) {
    return { score: 0, exact: false, summary: 'no counts in the answer', detail: { perCategory } };
  }
  return {
    score: Math.max(0, 1 - error / Math.max(1, total)),
    exact: error === 0,
    summary: error === 0 ? 'exact' : `abs error ${error}`,
    detail: { absError: error, perCategory },
  };
}

export const oolongLite: TaskGenerator<OolongTruth> = {
  name: 'oolong-lite',
  description: 'count support tickets per category; paraphrased so grep cannot classify them',
  sizeUnit: 'tickets',
  defaultSize: 300,
  generate(options: GenerateOptions = {}): TaskInstance<OolongTruth> {
    const { size, seed, rng } = instanceInputs(oolongLite, options, { min: 1 });
    const counts = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
    const labels: Record<string, Category> = {};
    const lines: string[] = [];
    for (let i = 0; i < size; i++) {
      const category = rng.pick(CATEGORIES);
      counts[category] += 1;
      labels[ticketId(i)] = category;
      lines.push(ticketLine(rng, i, category));
    }
    const truth = { counts, labels };
    return {
      task: 'oolong-lite',
      size,
      seed,
      question: question(size),
      context: { kind: 'text', chunks: [`${lines.join('\n')}\n`] },
      truth,
      score: (answer) => scoreCounts(answer, counts),
    };
  },
};
