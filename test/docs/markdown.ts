/**
 * A small reader of this project's Markdown for the docs tests: fenced code
 * blocks, inline code spans, tables, headings (with GitHub's anchor slugs)
 * and relative links. It reads only what README.md and docs/ use.
 */
import { readFileSync } from 'node:fs';

/** One Markdown file, split into what the checks look at. */
export interface MarkdownDoc {
  path: string;
  /** Lines of shell or text code blocks, continuation lines (`\`) joined. */
  shellLines: string[];
  /** Inline code spans of prose and table cells, with the section they are in. */
  spans: { text: string; section: string }[];
  /** Table rows: the first cell's code spans, the raw line, and the section they are in. */
  rows: { firstCell: string[]; line: string; section: string }[];
  /** Anchors of the headings, as GitHub makes them. */
  anchors: Set<string>;
  /** Link targets `[text](target)` outside code. */
  links: string[];
}

const SHELL_LANGS = new Set(['', 'sh', 'bash', 'shell', 'text', 'console']);

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
}

/** Reads and splits one file. */
export function readMarkdown(path: string): MarkdownDoc {
  const doc: MarkdownDoc = {
    path,
    shellLines: [],
    spans: [],
    rows: [],
    anchors: new Set(),
    links: [],
  };
  const lines = readFileSync(path, 'utf8').split('\n');
  let fence: { lang: string } | undefined;
  let section = '';
  let paragraph: string[] = [];
  const flush = () => {
    const text = paragraph.join(' ');
    for (const span of codeSpans(text)) doc.spans.push({ text: span, section });
    for (const m of text.replace(/`[^`]*`/g, '').matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
      doc.links.push(m[1] ?? '');
    }
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const opener = /^\s*```(\w*)/.exec(line);
    if (fence) {
      if (/^\s*```\s*$/.test(line)) fence = undefined;
      else if (SHELL_LANGS.has(fence.lang)) {
        let joined = line;
        while (joined.endsWith('\\') && i + 1 < lines.length) {
          joined = `${joined.slice(0, -1)} ${lines[++i] ?? ''}`;
        }
        doc.shellLines.push(joined);
      }
      continue;
    }
    if (opener) {
      flush();
      fence = { lang: opener[1] ?? '' };
      continue;
    }
    const heading = /^(#+)\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const text = heading[2] ?? '';
      // A section is a top-level part of the page (# or ##); ### headings divide it further.
      if ((heading[1] ?? '').length <= 2) section = text;
      doc.anchors.add(slug(text.replace(/`/g, '')));
      continue;
    }
    if (line.startsWith('|')) {
      flush();
      paragraph = [line];
      flush();
      // Split on pipes that are not escaped (`fence\|tools`).
      const cells = line.split(/(?<!\\)\|/).slice(1, -1);
      doc.rows.push({ firstCell: codeSpans(cells[0] ?? ''), line, section });
      continue;
    }
    if (line.trim() === '') flush();
    else paragraph.push(line);
  }
  flush();
  return doc;
}
