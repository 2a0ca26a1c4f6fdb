/**
 * longdoc-qa: two-hop questions over a long synthetic engineering digest. A
 * project's current owner and that person's office city are stated in
 * different sections, among former owners, visits and filler; the answer is
 * the city, by exact match.
 */
import { normalizeShortAnswer } from '../answer-parse.js';
import { TaskGenerationError } from '../errors.js';
import type { Prng } from '../prng.js';
import type { GenerateOptions, Score, TaskGenerator, TaskInstance } from '../task.js';
import { instanceInputs } from './instance-inputs.js';

export interface LongdocQuestion {
  project: string;
  owner: string;
  city: string;
  /** Sections (1-based) holding the owner fact and the office fact. */
  ownerSection: number;
  officeSection: number;
}

export interface LongdocTruth {
  questions: LongdocQuestion[];
}

const PROJECT_WORDS = (
  'Heron Quill Ember Falcon Lantern Mosaic Orbit Prism Saffron Tundra Vesper Walnut ' +
  'Anvil Beacon Cobalt Dynamo Fathom Gossamer Hemlock Jigsaw Kiln Lattice Meridian Nebula ' +
  'Obsidian Pinnacle Quasar Rampart Sextant Trellis Umbra Vortex Wicket Yonder Zenith ' +
  'Almanac Bastion Citadel Dervish Eclipse Fresco Gantry Harrow Ingot Juggernaut Keystone'
).split(' ');
const FIRST = (
  'Priya Tomasz Amara Keiko Luca Nadia Oskar Rosa Samir Talia Victor Wanda Yusuf Zora ' +
  'Anton Bea Caleb Dinah Elio Farah Gideon Hana Idris Jonas Kira Leon Mira Nils Odile Pavel'
).split(' ');
const LAST = (
  'Natarajan Kowalski Eze Watanabe Romano Haddad Lund Ortega Khalil Stern Varga Morales ' +
  'Abara Brandt Castillo Dufresne Ekberg Fontaine Gallo Hartmann Iwu Jensen Kuznetsov ' +
  'Laine Mbeki Nyberg Oyelaran Petrov Quist Rahman'
).split(' ');
const CITIES = (
  'Lisbon Osaka Denver Nairobi Tallinn Montreal Porto Seoul Austin Dublin Krakow Lagos ' +
  'Auckland Bergen Cordoba Hanoi Leeds Quito Tampere Valencia'
).split(' ');
const TEAMS = ['Platform', 'Data', 'Mobile', 'Payments', 'Search', 'Infra', 'Web', 'Security'];

const FILLER = [
  (r: Prng) => `The on-call rotation handled ${r.range(2, 19)} pages this week.`,
  (r: Prng) => `Median build time dropped to ${r.range(3, 14)} minutes.`,
  (r: Prng) => `Schema migration ${r.range(100, 999)} finished without downtime.`,
  (r: Prng) => `Error rates stayed under ${r.range(1, 9)} per ten thousand requests.`,
  (r: Prng) => `The team closed ${r.range(5, 60)} backlog items and opened ${r.range(3, 40)}.`,
  () => 'A flaky integration test was quarantined and rewritten.',
  () => 'Dependency upgrades were merged after a review of the changelogs.',
  () => 'The design review for the new cache layer is scheduled for Thursday.',
  (r: Prng) => `Load tests sustained ${r.range(2, 40)} thousand requests per second.`,
  () => 'Documentation for the deploy pipeline was brought up to date.',
];

const OWNER_NOW = [
  (p: string, n: string) => `${p} is now owned by ${n}.`,
  (p: string, n: string) => `${n} has taken over as owner of ${p}.`,
  (p: string, n: string) => `Owner of ${p}: ${n}.`,
];
const OWNER_BEFORE = [
  (p: string, n: string) => `${p} was previously owned by ${n}, who has moved on.`,
  (p: string, n: string) => `${n} handed ${p} over to a new owner last quarter.`,
];
const OFFICE = [
  (n: string, c: string) => `${n} works from the ${c} office.`,
  (n: string, c: string) => `${n} is based in ${c}.`,
  (n: string, c: string) => `Office roster update: ${n} (${c}).`,
];
const VISIT = [
  (n: string, c: string) => `${n} visited ${c} for a customer workshop.`,
  (n: string, c: string) => `${n} will travel to ${c} next week.`,
];
const PROJECT_NOISE = [
  (p: string) => `${p} finished its load tests with no regressions.`,
  (p: string) => `The ${p} dashboard now shows p99 latency.`,
];

const QUESTIONS = 3;

function question(sections: number, projects: string[]): string {
  return [
    `The context is an engineering digest of ${sections} numbered sections.`,
    'For each project below, find the person who currently owns it, then the city of the office that person works from.',
    `Projects: ${projects.join(', ')}.`,
    'Answer with one `<project>: <city>` pair per project, on separate lines or separated by semicolons, for example `Project Example: Paris; Project Sample: Rome`.',
  ].join('\n');
}

/** Score per question: exact match on the city given for each project. */
export function scoreLongdoc(answer: string, questions: LongdocQuestion[]): Score {
  const given = new Map<string, string>();
  for (const line of answer.split(/[\n;]/)) {
    const m = /(Project [A-Z][a-z]+)\s*[:=\-–]+\s*(.+)$/.exec(line.trim());
    if (m?.[1] && m[2]) given.set(m[1], normalizeShortAnswer(m[2]).toLowerCase());
  }
  const right = questions.filter((q) => given.get(q.project) === q.city.toLowerCase()).length;
  return {
    score: right / questions.length,
    exact: right === questions.length,
    summary: `${right}/${questions.length} questions`,
    detail: { right, questions: questions.length },
  };
}

export const longdocQa: TaskGenerator<LongdocTruth> = {
  name: 'longdoc-qa',
  description: 'two-hop questions (project -> owner -> office city) over a long digest',
  sizeUnit: 'sections',
  defaultSize: 100,
  generate(options: GenerateOptions = {}): TaskInstance<LongdocTruth> {
    const { size, seed, rng } = instanceInputs(longdocQa, options, { min: 6 });
    const projectCount = Math.min(PROJECT_WORDS.length, Math.max(6, Math.floor(size / 4)));
    const projects = rng
      .shuffle(PROJECT_WORDS)
      .slice(0, projectCount)
      .map((w) => `Project ${w}`);
    const allNames = FIRST.flatMap((f) => LAST.map((l) => `${f} ${l}`));
    const peopleCount = Math.min(allNames.length, projectCount * 2 + Math.floor(size / 3));
    const people = rng.shuffle(allNames).slice(0, peopleCount);
    const office = new Map(people.map((p) => [p, rng.pick(CITIES)]));

    const sections: string[][] = Array.from({ length: size }, () => []);
    const place = (sentence: string, avoid?: number): number => {
      let at = rng.int(size);
      if (avoid !== undefined && at === avoid) at = (at + 1 + rng.int(size - 1)) % size;
      sections[at]?.push(sentence);
      return at;
    };

    const owners = new Map<string, string>();
    const ownerSection = new Map<string, number>();
    projects.forEach((project, i) => {
      const owner = people[i] as string;
      owners.set(project, owner);
      ownerSection.set(project, place(rng.pick(OWNER_NOW)(project, owner)));
      const former = people[projectCount + i] as string;
      place(rng.pick(OWNER_BEFORE)(project, former));
      place(rng.pick(PROJECT_NOISE)(project));
    });
    const officeSection = new Map<string, number>();
    for (const person of people) {
      const city = office.get(person) as string;
      const ownsAt = [...owners].find(([, o]) => o === person)?.[0];
      const avoid = ownsAt === undefined ? undefined : ownerSection.get(ownsAt);
      officeSection.set(person, place(rng.pick(OFFICE)(person, city), avoid));
      let away = rng.pick(CITIES);
      while (away === city) away = rng.pick(CITIES);
      place(rng.pick(VISIT)(person, away));
    }

    const asked = rng.shuffle(projects).slice(0, QUESTIONS);
    const questions: LongdocQuestion[] = asked.map((project) => {
      const owner = owners.get(project) as string;
      return {
        project,
        owner,
        city: office.get(owner) as string,
        ownerSection: (ownerSection.get(project) as number) + 1,
        officeSection: (officeSection.get(owner) as number) + 1,
      };
    });
    for (const q of questions) {
      if (q.ownerSection === q.officeSection) {
        throw new TaskGenerationError(`longdoc-qa: ${q.project} has both facts in one section`);
      }
    }

    const text = sections
      .map((facts, i) => {
        const body = facts.slice();
        const fill = rng.range(6, 10);
        for (let k = 0; k < fill; k++) {
          body.splice(rng.int(body.length + 1), 0, rng.pick(FILLER)(rng));
        }
        return `## ${i + 1}. ${rng.pick(TEAMS)} weekly notes\n\n${body.join(' ')}\n`;
      })
      .join('\n');

    return {
      task: 'longdoc-qa',
      size,
      seed,
      question: question(size, asked),
      context: { kind: 'text', chunks: [text] },
      truth: { questions },
      score: (answer) => scoreLongdoc(answer, questions),
    };
  },
};
