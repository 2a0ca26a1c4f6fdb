/**
 * How the scripted model answers a plain prompt (the whole context in one
 * message): as a reader that sees everything at once. It finds what a careful
 * reader would find, and labels tickets with the same error rate as the
 * scripted sub-model.
 */
import type { MockRequest } from '../../testing/mock-policy.js';
import { documentOf } from '../plain-prompt.js';
import { CATEGORIES, parseCategory } from '../tasks/ticket-bank.js';
import { type RootTurn, readTurn } from './conversation.js';
import { detectLogFormat } from './python-snippets.js';
import { type ReaderOptions, readLabel } from './reader.js';
import { cityFrom, ownerFrom } from './root/longdoc.js';
import { passphraseFrom } from './root/needle.js';

export type PlainReaderOptions = ReaderOptions;

/** A plain request: no system prompt, one user message holding a document. */
export function isPlainRequest(request: MockRequest): boolean {
  const [first, ...rest] = request.messages;
  return rest.length === 0 && first?.role === 'user' && documentOf(first.content) !== undefined;
}

export function answerPlain(request: MockRequest, options: PlainReaderOptions): string {
  const prompt = request.messages[0]?.content ?? '';
  const doc = documentOf(prompt) ?? '';
  const turn = readTurn(request);
  if (prompt.includes('current secret passphrase')) {
    return passphraseFrom(doc.split('\n').filter((l) => l.includes('passphrase'))) ?? 'not found';
  }
  if (prompt.includes('customer support tickets, one per line')) return countTickets(doc, options);
  if (prompt.includes('engineering digest of')) return answerDigest(doc, turn);
  if (prompt.includes("department names to that department's ticket log")) {
    return answerDepartments(doc, turn, options);
  }
  return 'The scripted offline policy has no strategy for this task';
}

function countTickets(doc: string, options: ReaderOptions): string {
  const counts = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<string, number>;
  for (const line of doc.split('\n')) {
    const m = /^\[([^\]]+)\]\s*(.*)$/.exec(line);
    if (m?.[1] && m[2] !== undefined) {
      const label = readLabel(m[1], m[2], options);
      counts[label] = (counts[label] ?? 0) + 1;
    }
  }
  return JSON.stringify(counts);
}

function answerDigest(doc: string, turn: RootTurn): string {
  const sentences = doc.split(/(?<=[.!?])\s+|\n+/);
  const m = /Projects: ([^\n]+?)\.\s*$/m.exec(
    turn.harnessText.slice(turn.harnessText.lastIndexOf('</document>')),
  );
  const projects = m?.[1] ? m[1].split(/,\s*/) : [];
  return projects
    .map((project) => {
      const owner = ownerFrom(
        project,
        sentences.filter((s) => s.includes(project)),
      );
      const city = owner
        ? cityFrom(
            owner,
            sentences.filter((s) => s.includes(owner)),
          )
        : undefined;
      return `${project}: ${city ?? 'unknown'}`;
    })
    .join('; ');
}

/** Replay every department's log and count open complaints of the asked category. */
function answerDepartments(doc: string, turn: RootTurn, options: ReaderOptions): string {
  const tail = turn.harnessText.slice(turn.harnessText.lastIndexOf('</document>'));
  const target = parseCategory(/whose complaint is about ([a-z ]+?) \(/.exec(tail)?.[1] ?? '');
  const counts: Record<string, number> = {};
  for (const section of doc.split(/^=== /m).slice(1)) {
    const nl = section.indexOf('\n');
    const name = section.slice(0, nl).replace(/ ===$/, '');
    const lines = section
      .slice(nl + 1)
      .split('\n')
      .filter((l) => l.trim());
    const format = detectLogFormat(lines[0] ?? '');
    const open = new Map<string, string>();
    const body = new Map<string, string>();
    for (const line of lines) {
      const event = format ? parseEvent(format, line) : undefined;
      if (!event) continue;
      if (event.kind === 'open') body.set(event.id, event.text);
      if (event.kind === 'close') open.delete(event.id);
      else open.set(event.id, body.get(event.id) ?? '');
    }
    counts[name] = [...open].filter(
      ([id, text]) => readLabel(`${name}#${id}`, text, options) === target,
    ).length;
  }
  const most = Object.entries(counts).sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  return JSON.stringify({ counts, most });
}

function parseEvent(
  format: string,
  line: string,
): { kind: string; id: string; text: string } | undefined {
  const l = line.trim();
  if (format === 'pipes') {
    const parts = l.split('|', 4).map((p) => p.trim());
    if (parts.length < 3) return undefined;
    return {
      kind: (parts[1] ?? '').toLowerCase(),
      id: (parts[2] ?? '').replace('TK-', ''),
      text: parts[3] ?? '',
    };
  }
  if (format === 'bracket') {
    const m = /^\[[^\]]*\] ticket (\d+) (opened|closed|reopened)(?:: "(.*)")?$/.exec(l);
    if (!m?.[1] || !m[2]) return undefined;
    return { kind: m[2].replace(/ed$/, '').replace(/^clos$/, 'close'), id: m[1], text: m[3] ?? '' };
  }
  if (format === 'json') {
    const m = /"event":"(\w+)","id":(\d+)(?:,"body":"((?:[^"\\]|\\.)*)")?/.exec(l);
    if (!m?.[1] || !m[2]) return undefined;
    return { kind: m[1], id: m[2], text: (m[3] ?? '').replace(/\\"/g, '"') };
  }
  const [id, k] = l.split(';');
  const kind = { o: 'open', c: 'close', r: 'reopen' }[k ?? ''];
  return id && kind ? { kind, id, text: l.slice(id.length + (k?.length ?? 0) + 2) } : undefined;
}
