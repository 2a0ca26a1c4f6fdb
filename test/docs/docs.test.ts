/**
 * The docs agree with the tool: every `reclamo` command and flag they name
 * exists in the built CLI's help, docs/cli.md has every flag in a table that
 * fits a screen, and every relative link (and its #anchor) resolves.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type HelpNode, readHelp } from './cli-help.js';
import { type MarkdownDoc, readMarkdown } from './markdown.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FILES = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(ROOT, 'docs', f)),
];
const docs = FILES.map(readMarkdown);
const rel = (doc: MarkdownDoc) => doc.path.slice(ROOT.length + 1);

let help: HelpNode;
// One CLI process per command and subcommand: on a loaded 2-core machine that takes a while.
beforeAll(() => {
  help = readHelp();
}, 120_000);

const FLAG = /(?:^|[\s[|(=])(--?[A-Za-z][\w-]*)/g;

/** Flags named in a piece of text (`--max-depth 2`, `[--file PATH]`, `-c, --context`). */
function flagsIn(text: string): string[] {
  return [...text.matchAll(FLAG)].map((m) => m[1] ?? '');
}

/** Each `reclamo ...` invocation in a line: the words after `reclamo`, up to a pipe or comment. */
function invocations(line: string): string[][] {
  const found: string[][] = [];
  for (const m of line.matchAll(/(?:^|[\s|;&(])reclamo(?=\s|$)/g)) {
    const rest = line.slice((m.index ?? 0) + m[0].length);
    const cut = rest.split(/\s#|\||;|&&|\)/)[0] ?? '';
    found.push(cut.split(/\s+/).filter(Boolean));
  }
  return found;
}

/** Problems with one invocation: an unknown command, or a flag the command does not take. */
function checkInvocation(words: string[], root: HelpNode): string[] {
  let node = root;
  let name = 'reclamo';
  let i = 0;
  const first = words[0];
  if (first !== undefined && /^[a-z][\w-]*$/.test(first) && !root.commands.has(first)) {
    return [`unknown command "reclamo ${first}"`];
  }
  // Walk down the subcommands named (`eval longbench-pro download`).
  for (
    let next = node.commands.get(words[i] ?? '');
    next;
    next = node.commands.get(words[i] ?? '')
  ) {
    name = `${name} ${words[i]}`;
    node = next;
    i += 1;
  }
  const problems: string[] = [];
  for (const word of words.slice(i)) {
    const flag = /^(--?[A-Za-z][\w-]*)/.exec(word)?.[1];
    if (flag && !node.flags.has(flag)) problems.push(`"${name}" has no flag ${flag}`);
  }
  return problems;
}

/** Every flag of every command, for flags named in prose without their command. */
function allFlags(node: HelpNode, into = new Set<string>()): Set<string> {
  for (const f of node.flags) into.add(f);
  for (const child of node.commands.values()) allFlags(child, into);
  return into;
}

/** Every command under a node, the node included. */
function subtree(node: HelpNode): HelpNode[] {
  return [node, ...[...node.commands.values()].flatMap(subtree)];
}

/**
 * The commands a section heading names (`reclamo bench and reclamo eval`,
 * `reclamo eval longbench-pro`), each with every command under it.
 */
function sectionCommands(section: string, root: HelpNode): HelpNode[] {
  const nodes: HelpNode[] = [];
  for (const m of section.matchAll(/reclamo((?: (?!reclamo\b)[a-z][\w-]*)+)/g)) {
    let node: HelpNode | undefined;
    for (const word of (m[1] ?? '').trim().split(' ')) {
      const next = (node ?? root).commands.get(word);
      if (!next) break;
      node = next;
    }
    if (node) nodes.push(...subtree(node));
  }
  return nodes;
}

describe('the docs name only commands and flags the CLI has', () => {
  it('every `reclamo ...` in code blocks and code spans', () => {
    const problems: string[] = [];
    for (const doc of docs) {
      const lines = [...doc.shellLines, ...doc.spans.map((s) => s.text)];
      for (const line of lines) {
        for (const words of invocations(line)) {
          for (const p of checkInvocation(words, help)) problems.push(`${rel(doc)}: ${p}: ${line}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('every flag named on its own in prose is a flag of some command', () => {
    const known = allFlags(help);
    const problems: string[] = [];
    for (const doc of docs) {
      for (const span of doc.spans) {
        if (!/^--?[A-Za-z]/.test(span.text)) continue;
        for (const flag of flagsIn(span.text)) {
          if (!known.has(flag)) problems.push(`${rel(doc)}: ${flag} in \`${span.text}\``);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('docs/cli.md tables list every flag of every command, and only real ones', () => {
    const cli = docs.find((d) => rel(d) === 'docs/cli.md');
    expect(cli).toBeDefined();
    const tabled = new Map<HelpNode, Set<string>>();
    const problems: string[] = [];
    for (const row of cli?.rows ?? []) {
      const nodes = sectionCommands(row.section, help);
      if (nodes.length === 0) continue;
      for (const flag of row.firstCell.flatMap(flagsIn)) {
        const owners = nodes.filter((n) => n.flags.has(flag));
        if (owners.length === 0) problems.push(`${row.section}: no such flag ${flag}`);
        for (const n of owners) tabled.set(n, (tabled.get(n) ?? new Set()).add(flag));
      }
    }
    const walk = (node: HelpNode, name: string) => {
      for (const flag of node.flags) {
        if (flag === '--help' || flag === '-h' || flag === '--version' || flag === '-V') continue;
        if (name === 'reclamo') continue;
        if (!tabled.get(node)?.has(flag)) problems.push(`${name}: ${flag} is in no table`);
      }
      for (const [sub, child] of node.commands) walk(child, `${name} ${sub}`);
    };
    walk(help, 'reclamo');
    expect(problems).toEqual([]);
  });

  it('docs/cli.md tables fit a 100-column screen', () => {
    const cli = docs.find((d) => rel(d) === 'docs/cli.md');
    const wide = (cli?.rows ?? []).filter((r) => r.line.length > 100).map((r) => r.line);
    expect(wide).toEqual([]);
  });
});

describe('links in README.md and docs/ resolve', () => {
  it('every relative link points at a file, and every #anchor at a heading', () => {
    const byPath = new Map(docs.map((d) => [d.path, d]));
    const problems: string[] = [];
    for (const doc of docs) {
      for (const link of doc.links) {
        if (/^[a-z]+:/i.test(link)) continue;
        const [file = '', anchor] = link.split('#');
        const target = file === '' ? doc.path : resolve(dirname(doc.path), file);
        if (!existsSync(target)) {
          problems.push(`${rel(doc)}: ${link}: no such file`);
          continue;
        }
        if (anchor === undefined) continue;
        const targetDoc = byPath.get(target) ?? readMarkdown(target);
        if (!targetDoc.anchors.has(anchor)) problems.push(`${rel(doc)}: ${link}: no such heading`);
      }
    }
    expect(problems).toEqual([]);
  });
});
