/**
 * needle: N lines of filler words with one line that states the current
 * secret passphrase and a few that mention expired ones. Exact match.
 */
import { normalizeShortAnswer } from '../answer-parse.js';
import type { Prng } from '../prng.js';
import type { GenerateOptions, TaskGenerator, TaskInstance } from '../task.js';
import { instanceInputs } from './instance-inputs.js';

export interface NeedleTruth {
  passphrase: string;
  /** 0-based line of the passphrase. */
  line: number;
}

const WORDS = (
  'amber basil cedar delta ember fjord grove harbor indigo juniper kelp lumen maple ' +
  'nectar onyx pebble quartz raven sable tundra umber violet willow xenon yarrow zephyr ' +
  'acorn birch canyon dune estuary fern glacier heath island jade lagoon meadow nimbus ' +
  'orchid prairie quill reef summit thicket upland vale wharf alder bramble coral drift ' +
  'elm flint gravel hollow iris jetty knoll larch marsh north oasis pine ridge shoal ' +
  'tide vapor wren azure bronze copper dusk fog gale hazel ivory kestrel loam mist'
).split(' ');

const CHUNK_LINES = 20_000;

function passphrase(rng: Prng): string {
  return `${rng.pick(WORDS)}-${rng.pick(WORDS)}-${rng.range(1000, 9999)}`;
}

function fillerLine(rng: Prng, n: number): string {
  const a = WORDS[rng.int(WORDS.length)];
  const b = WORDS[rng.int(WORDS.length)];
  const c = WORDS[rng.int(WORDS.length)];
  const d = WORDS[rng.int(WORDS.length)];
  return `${String(n).padStart(7, '0')} ${a} ${b} ${c} ${d}`;
}

export const needle: TaskGenerator<NeedleTruth> = {
  name: 'needle',
  description: 'find the one line with the current passphrase among N filler lines',
  sizeUnit: 'lines',
  defaultSize: 1_000_000,
  generate(options: GenerateOptions = {}): TaskInstance<NeedleTruth> {
    const { size, seed, rng } = instanceInputs(needle, options, { min: 10 });
    const answer = passphrase(rng);
    const line = rng.int(size);
    const decoys = new Map<number, string>();
    for (let i = 0; i < 3; i++) {
      let at = rng.int(size);
      while (at === line || decoys.has(at)) at = (at + 1) % size;
      let old = passphrase(rng);
      while (old === answer) old = passphrase(rng);
      decoys.set(at, `${String(at).padStart(7, '0')} note: expired passphrase ${old} (do not use)`);
    }
    const chunks: string[] = [];
    for (let start = 0; start < size; start += CHUNK_LINES) {
      const end = Math.min(size, start + CHUNK_LINES);
      const lines: string[] = new Array(end - start);
      for (let n = start; n < end; n++) {
        if (n === line) {
          lines[n - start] = `${String(n).padStart(7, '0')} The secret passphrase is: ${answer}`;
        } else {
          lines[n - start] = decoys.get(n) ?? fillerLine(rng, n);
        }
      }
      chunks.push(`${lines.join('\n')}\n`);
    }
    return {
      task: 'needle',
      size,
      seed,
      question:
        'The context is a long list of numbered lines. Exactly one line states the current secret passphrase; a few others mention expired ones. What is the current secret passphrase? Answer with the passphrase only.',
      context: { kind: 'text', chunks },
      truth: { passphrase: answer, line },
      score(given) {
        const found = normalizeShortAnswer(given).toLowerCase() === answer;
        return { score: found ? 1 : 0, exact: found, summary: found ? 'found' : 'not found' };
      },
    };
  },
};
