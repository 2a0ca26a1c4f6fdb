/**
 * LongBench v2 in its markdown layout: `<stem>.md` holds the metadata list,
 * the question, choices A-D and the answer letter under `# Metadata`,
 * `# Question`, `# Choices` and `# Answer`; `<stem>_context.txt` holds the
 * document.
 */
import { EvalConfigError } from '../errors.js';

export const CHOICE_LETTERS = ['A', 'B', 'C', 'D'] as const;
export type ChoiceLetter = (typeof CHOICE_LETTERS)[number];

export interface LongBenchV2Item {
  id: string;
  domain: string;
  subdomain?: string;
  difficulty?: string;
  length?: string;
  question: string;
  choices: Record<ChoiceLetter, string>;
  answer: ChoiceLetter;
  /** The markdown file the item came from. */
  file: string;
  /** Its context file. */
  contextFile: string;
}

const SECTIONS = ['Metadata', 'Question', 'Choices', 'Answer'] as const;

/** Parses one item's markdown; the error names the file and what is missing. */
export function parseItemMarkdown(
  text: string,
  file: string,
  contextFile: string,
): LongBenchV2Item {
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    const heading = /^# (Metadata|Question|Choices|Answer)\s*$/.exec(line)?.[1];
    if (heading) {
      current = [];
      sections.set(heading, current);
    } else current?.push(line);
  }
  const missing = SECTIONS.filter((s) => !sections.has(s));
  if (missing.length > 0) {
    throw new EvalConfigError(
      `${file}: no "# ${missing.join('", "# ')}" section. Fix: give each item the LongBench v2 markdown layout (# Metadata, # Question, # Choices, # Answer).`,
    );
  }
  const meta = new Map<string, string>();
  for (const line of sections.get('Metadata') ?? []) {
    const m = /^-\s*([^:]+):\s*(.*)$/.exec(line.trim());
    if (m) meta.set((m[1] ?? '').trim().toLowerCase(), (m[2] ?? '').trim());
  }
  const id = meta.get('id');
  const domain = meta.get('domain');
  if (!id || !domain)
    throw new EvalConfigError(`${file}: the metadata needs "- ID:" and "- Domain:"`);
  const choices = parseChoices(sections.get('Choices') ?? [], file);
  const answer = (sections.get('Answer') ?? []).join('\n').trim().toUpperCase();
  if (!(CHOICE_LETTERS as readonly string[]).includes(answer)) {
    throw new EvalConfigError(`${file}: the answer must be one of A, B, C, D, got "${answer}"`);
  }
  const question = (sections.get('Question') ?? []).join('\n').trim();
  if (question === '') throw new EvalConfigError(`${file}: the question is empty`);
  const optional = (key: string) => {
    const value = meta.get(key);
    return value ? { [key]: value } : {};
  };
  return {
    id,
    domain,
    ...optional('subdomain'),
    ...optional('difficulty'),
    ...optional('length'),
    question,
    choices,
    answer: answer as ChoiceLetter,
    file,
    contextFile,
  };
}

function parseChoices(lines: string[], file: string): Record<ChoiceLetter, string> {
  const out: Partial<Record<ChoiceLetter, string>> = {};
  let last: ChoiceLetter | undefined;
  for (const line of lines) {
    const m = /^-\s*([A-D])\s*[:.)]\s?(.*)$/.exec(line);
    if (m) {
      last = m[1] as ChoiceLetter;
      out[last] = m[2] ?? '';
    } else if (last && line.trim() !== '') {
      out[last] = `${out[last]}\n${line}`;
    }
  }
  const missing = CHOICE_LETTERS.filter((l) => out[l] === undefined);
  if (missing.length > 0) throw new EvalConfigError(`${file}: no choice ${missing.join(', ')}`);
  return out as Record<ChoiceLetter, string>;
}

/** The question the model gets: the question, the four choices, and how to answer. */
export function itemQuestion(item: LongBenchV2Item): string {
  const choices = CHOICE_LETTERS.map((l) => `${l}. ${item.choices[l].trim()}`).join('\n');
  return `${item.question}\n\n${choices}\n\nReply with the letter of the one correct choice (A, B, C or D) and nothing else.`;
}
