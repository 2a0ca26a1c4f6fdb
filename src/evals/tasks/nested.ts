/**
 * nested: a dict of department ticket logs in four line formats. Each
 * department needs format discovery, a replay of open/close/reopen events and
 * a reading of the surviving complaints (paraphrased, so grep cannot classify
 * them). Scored per department, plus whether the "most" department is right.
 */
import { isRecord } from '../../util/safe-json.js';
import { extractJsonObject } from '../answer-parse.js';
import { TaskGenerationError } from '../errors.js';
import type { Prng } from '../prng.js';
import type { GenerateOptions, Score, TaskGenerator, TaskInstance } from '../task.js';
import { instanceInputs } from './instance-inputs.js';
import {
  assertParaphrase,
  CATEGORIES,
  CATEGORY_LABELS,
  type Category,
  complaintText,
} from './ticket-bank.js';

export interface NestedTruth {
  category: Category;
  /** Open tickets of the target category at the end of each department's log. */
  counts: Record<string, number>;
  most: string;
}

const DEPARTMENTS = [
  'appliances',
  'audio',
  'books',
  'cameras',
  'furniture',
  'garden',
  'gaming',
  'kitchen',
  'lighting',
  'outdoor',
  'phones',
  'toys',
  'travel',
  'watches',
  'wellness',
  'workwear',
];

type EventKind = 'open' | 'close' | 'reopen';
interface LogEvent {
  kind: EventKind;
  id: number;
  text: string;
  minute: number;
}

/** The four line formats, one per department (assigned round-robin after a shuffle). */
const FORMATS: ((e: LogEvent) => string)[] = [
  (e) => {
    const time = `2026-04-${String(1 + Math.floor(e.minute / 1440)).padStart(2, '0')} ${clock(e.minute)}`;
    return `${time} | ${e.kind.toUpperCase()} | TK-${e.id} |${e.kind === 'open' ? ` ${e.text}` : ''}`;
  },
  (e) => {
    const verb = { open: 'opened', close: 'closed', reopen: 'reopened' }[e.kind];
    return `[${clock(e.minute)}:00] ticket ${e.id} ${verb}${e.kind === 'open' ? `: "${e.text}"` : ''}`;
  },
  (e) =>
    JSON.stringify({
      ts: 1775000000 + e.minute * 60,
      event: e.kind,
      id: e.id,
      ...(e.kind === 'open' ? { body: e.text } : {}),
    }),
  (e) => `${e.id};${e.kind[0]};${e.kind === 'open' ? e.text.replaceAll(';', ',') : ''}`,
];

function clock(minute: number): string {
  const m = minute % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Events for one department's tickets: every ticket opens; some close, some reopen. */
function departmentEvents(rng: Prng, tickets: number): { events: LogEvent[]; open: Category[] } {
  const events: LogEvent[] = [];
  const open: Category[] = [];
  let minute = rng.int(600);
  const firstId = rng.range(1000, 8000);
  const pending: { id: number; category: Category; state: 'open' | 'closed' }[] = [];
  for (let t = 0; t < tickets; t++) {
    const id = firstId + t;
    const category = rng.pick(CATEGORIES);
    const text = complaintText(rng, category);
    assertParaphrase(text, category, `nested: ticket ${id}`);
    minute += rng.range(1, 30);
    events.push({ kind: 'open', id, text, minute });
    pending.push({ id, category, state: 'open' });
    // Close or reopen an earlier ticket now and then, so the replay matters.
    if (pending.length > 3 && rng.chance(0.7)) {
      const target = pending[rng.int(pending.length)] as (typeof pending)[number];
      const kind: EventKind = target.state === 'open' ? 'close' : 'reopen';
      target.state = kind === 'close' ? 'closed' : 'open';
      minute += rng.range(1, 30);
      events.push({ kind, id: target.id, text: '', minute });
    }
  }
  for (const p of pending) if (p.state === 'open') open.push(p.category);
  return { events, open };
}

function question(departments: string[], category: Category): string {
  return [
    `The context is a dict mapping each of ${departments.length} department names to that department's ticket log (one event per line).`,
    'The logs do not share one line format: each department writes its events its own way.',
    'Every ticket is opened once with a complaint; later events may close it or reopen it. A ticket is open at the end when its last event is an open or a reopen.',
    `For each department, count the tickets still open at the end whose complaint is about ${CATEGORY_LABELS[category]}. Complaints are paraphrased, so read them.`,
    `Answer with a JSON object {"counts": {<department>: <count>, ...}, "most": <department with the highest count>}.`,
  ].join('\n');
}

/** Score per department by absolute error, plus whether `most` names the top department. */
export function scoreNested(answer: string, truth: NestedTruth): Score {
  const parsed = extractJsonObject(answer);
  const counts = parsed.ok && isRecord(parsed.value.counts) ? parsed.value.counts : {};
  const most = parsed.ok ? parsed.value.most : undefined;
  let error = 0;
  let exactDepartments = 0;
  const departments = Object.keys(truth.counts);
  for (const department of departments) {
    const got = Number(counts[department]);
    const diff = Number.isFinite(got)
      ? Math.abs(got - (truth.counts[department] ?? 0))
      : (truth.counts[department] ?? 0);
    error += diff;
    if (diff === 0 && Number.isFinite(got)) exactDepartments += 1;
  }
  const mostRight = typeof most === 'string' && most.trim().toLowerCase() === truth.most;
  const n = departments.length;
  const exact = exactDepartments === n && mostRight;
  const summary =
    exactDepartments === n
      ? `${n}/${n} counts, most ${mostRight ? 'right' : 'wrong'}`
      : `abs error ${error} (${exactDepartments}/${n} exact), most ${mostRight ? 'right' : 'wrong'}`;
  return {
    score: (exactDepartments + (mostRight ? 1 : 0)) / (n + 1),
    exact,
    summary,
    detail: { absError: error, exactDepartments, mostRight },
  };
}

export const nested: TaskGenerator<NestedTruth> = {
  name: 'nested',
  description: 'per-department replay and reading over logs in four formats (depth-2 task)',
  sizeUnit: 'departments',
  defaultSize: 12,
  generate(options: GenerateOptions = {}): TaskInstance<NestedTruth> {
    const { size, seed, rng } = instanceInputs(nested, options, {
      min: 2,
      max: DEPARTMENTS.length,
    });
    const category = rng.pick(CATEGORIES);
    const departments = rng.shuffle(DEPARTMENTS).slice(0, size).sort();
    const formatOf = rng.shuffle(departments.map((_, i) => i % FORMATS.length));
    // Redraw until one department has strictly the highest count, so "most" is well defined.
    for (let attempt = 0; attempt < 50; attempt++) {
      const files: Record<string, string> = {};
      const counts: Record<string, number> = {};
      departments.forEach((department, i) => {
        const { events, open } = departmentEvents(rng, rng.range(170, 230));
        const format = FORMATS[formatOf[i] as number] as (e: LogEvent) => string;
        files[department] = `${events.map(format).join('\n')}\n`;
        counts[department] = open.filter((c) => c === category).length;
      });
      const top = Math.max(...Object.values(counts));
      const leaders = departments.filter((d) => counts[d] === top);
      if (leaders.length !== 1) continue;
      const truth: NestedTruth = { category, counts, most: leaders[0] as string };
      return {
        task: 'nested',
        size,
        seed,
        question: question(departments, category),
        context: { kind: 'dict', files },
        truth,
        score: (answer) => scoreNested(answer, truth),
      };
    }
    throw new TaskGenerationError(
      `nested: no instance with a single top department for seed ${seed}`,
    );
  },
};
