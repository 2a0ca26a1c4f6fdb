/**
 * Scripted root for longdoc-qa: one search for each project's sentences, read
 * the current owner from what was printed, one search for each owner's
 * sentences, read the office city, answer.
 */
import { MARK_EXPR, markedLines, type RootAction, type RootTurn } from '../conversation.js';

export const LONGDOC_MARKER = 'engineering digest of';

function searchCode(tag: string, names: string[]): string {
  return `import re
_tag = ${MARK_EXPR}
_sentences = [s.strip() for s in re.split(r"(?<=[.!?])\\s+|\\n+", context) if s.strip()]
for _name in ${JSON.stringify(names)}:
    _pattern = re.compile(r"\\b" + re.escape(_name) + r"\\b")
    for _s in [s for s in _sentences if _pattern.search(s)][:20]:
        print(f"{_tag}${tag} {_name} || {_s}")`;
}

/** Sentences printed for each name: `name || sentence`. */
function printed(turn: RootTurn, tag: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of turn.observations.flatMap((o) => markedLines(o, tag))) {
    const [name, sentence] = line.split(' || ');
    if (!name || !sentence) continue;
    out.set(name, [...(out.get(name) ?? []), sentence]);
  }
  return out;
}

const NAME = '([A-Z][a-z]+ [A-Z][a-z]+)';

/** The current owner a project's sentences state (former owners are skipped). */
export function ownerFrom(project: string, sentences: string[]): string | undefined {
  const p = project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const patterns = [
    new RegExp(`${p} is now owned by ${NAME}`),
    new RegExp(`${NAME} has taken over as owner of ${p}`),
    new RegExp(`Owner of ${p}: ${NAME}`),
  ];
  for (const sentence of sentences) {
    for (const pattern of patterns) {
      const m = pattern.exec(sentence);
      if (m?.[1]) return m[1];
    }
  }
  return undefined;
}

/** The office city a person's sentences state (visits and trips are skipped). */
export function cityFrom(person: string, sentences: string[]): string | undefined {
  const patterns = [
    new RegExp(`${person} works from the ([A-Z][a-z]+) office`),
    new RegExp(`${person} is based in ([A-Z][a-z]+)`),
    new RegExp(`${person} \\(([A-Z][a-z]+)\\)`),
  ];
  for (const sentence of sentences) {
    for (const pattern of patterns) {
      const m = pattern.exec(sentence);
      if (m?.[1]) return m[1];
    }
  }
  return undefined;
}

function projectsAsked(turn: RootTurn): string[] {
  const m = /Projects: ([^\n]+?)\.\s*$/m.exec(turn.harnessText);
  return m?.[1] ? m[1].split(/,\s*/).map((p) => p.trim()) : [];
}

export function longdocStep(turn: RootTurn): RootAction {
  const projects = projectsAsked(turn);
  if (turn.turn === 0) {
    return {
      kind: 'code',
      code: searchCode('P', projects),
      note: 'Two hops: first the sentences that mention each project, to find its current owner.',
    };
  }
  const byProject = printed(turn, 'P');
  const owners = projects.map((p) => ownerFrom(p, byProject.get(p) ?? []));
  const known = owners.filter((o): o is string => o !== undefined);
  const byPerson = printed(turn, 'O');
  if (turn.turn === 1 && known.length > 0) {
    return {
      kind: 'code',
      code: searchCode('O', [...new Set(known)]),
      note: `Owners found: ${known.join(', ')}. Now the sentences about each owner, for the office city.`,
    };
  }
  const answer = projects
    .map((project, i) => {
      const owner = owners[i];
      const city = owner ? cityFrom(owner, byPerson.get(owner) ?? []) : undefined;
      return `${project}: ${city ?? 'unknown'}`;
    })
    .join('; ');
  return {
    kind: 'final',
    answer,
    note: 'Each owner and office city came from the printed sentences.',
  };
}
