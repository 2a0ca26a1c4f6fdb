/**
 * A small synthetic LongBench Pro file with the real layout (a JSON array of
 * records with the dataset's field names), written at test time. Its
 * documents are built to exercise grouping: equal contexts, a long line
 * shared under different case and spacing, a chain of shared lines, and a
 * line one character too short to tie two items.
 */
import { writeFileSync } from 'node:fs';

export interface FixtureRecord {
  id: string;
  context: string;
  language: string;
  token_length: string;
  primary_task: string;
  secondary_task: string;
  contextual_requirement: string;
  difficulty: string;
  question_nonthinking: string;
  question_thinking: string;
  answer: string[];
}

const LONG_A =
  'The harbour commission met on the ninth of March and agreed, after a long debate about dredging costs, to postpone the eastern pier repairs until spring.';
const LONG_B =
  'Inspectors later found that the western breakwater had shifted nearly forty centimetres, a movement nobody on the commission had anticipated or budgeted for.';
// 119 characters: one short of tying two items together.
const SHORT_119 = `${'x'.repeat(100)} nineteen chars ok`;

function filler(seed: number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(`note ${seed}-${i}: routine entry number ${i * 7 + seed}`);
  return out.join('\n');
}

function record(
  id: string,
  context: string,
  secondary: string,
  question: string,
  answer: string[],
  extra: Partial<FixtureRecord> = {},
): FixtureRecord {
  const primary = `${secondary.split('.')[0]}. Primary`;
  return {
    id,
    context,
    language: 'English',
    token_length: '8k',
    primary_task: primary,
    secondary_task: secondary,
    contextual_requirement: 'Partial',
    difficulty: 'Easy',
    question_nonthinking: question,
    question_thinking: `${question}\nThink step by step first.`,
    answer,
    ...extra,
  };
}

const MC = (q: string) => `${q}\nA. north\nB. south\nC. east\nD. west\nAnswer after [Answer].`;

/** The fixture's records; ids lb-00 ... */
export function fixtureRecords(): FixtureRecord[] {
  const docA = `${filler(1, 20)}\n${LONG_A}\n${filler(2, 5)}`;
  const docB = `${filler(3, 10)}\n${LONG_A.toUpperCase().replace(/ /g, '   ')}\n${LONG_B}`;
  const docC = `${filler(4, 8)}\n\t${LONG_B}  \n${filler(5, 3)}`;
  const docD = `${filler(6, 8)}\n${SHORT_119}`;
  const docE = `${filler(7, 8)}\n${SHORT_119}`;
  const records: FixtureRecord[] = [
    record('lb-00', docA, 'T3.2 Single-Hop Fact QA', MC('Which pier?'), ['C']),
    record('lb-01', docA, 'T3.2 Single-Hop Fact QA', 'When did they meet?', ['ninth of March'], {
      token_length: '16k',
    }),
    record('lb-02', docB, 'T6.1 Large-Scale Document Clustering', 'Group them.', ['a', 'b']),
    record('lb-03', docC, 'T2.1 Global Timeline Reconstruction', 'Order the events.', [
      'e1',
      'e2',
      'e3',
    ]),
    record('lb-04', docD, 'T1.1 Global Cohesive Retrieval', 'Rank the notes.', ['n1', 'n2']),
    record('lb-05', docE, 'T5.1 Full-Sentence Citation Alignment', 'Cite.', ['[1]', '[2]']),
    record('lb-06', filler(8, 12), 'T3.1 Multi-Doc Integration QA', MC('Pick all that apply.'), [
      'A',
      'C',
    ]),
    record(
      'lb-07',
      filler(9, 12),
      'T11.1 Long-Range Entity & Commitment Tracking',
      MC('Select one or more directions.'),
      ['B'],
    ),
    record('lb-08', filler(10, 12), 'T4.1 Global-Coverage Constrained Summary', 'Summarise.', [
      'a summary',
    ]),
    record(
      'lb-09',
      '港口委员会在三月九日开会。\n'.repeat(30),
      'T8.2 Single-Source Targeted Aggregation',
      '几次？',
      ['3'],
      {
        language: 'Chinese',
        token_length: '32k',
      },
    ),
  ];
  for (let i = 10; i < 60; i++) {
    const id = `lb-${String(i).padStart(2, '0')}`;
    const buckets = ['8k', '16k', '32k', '64k', '128k', '256k'];
    records.push(
      record(
        id,
        filler(100 + i, 6),
        'T7.1 Global Conflict & Inconsistency Localization',
        'Find conflicts.',
        ['c1'],
        {
          token_length: buckets[i % buckets.length] as string,
        },
      ),
    );
  }
  return records;
}

/** Writes the fixture to `path` (a JSON array, as the dataset ships) and returns its records. */
export function writeLongBenchProFixture(
  path: string,
  records = fixtureRecords(),
): FixtureRecord[] {
  writeFileSync(path, `[\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
  return records;
}
