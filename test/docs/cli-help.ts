/**
 * The built CLI's commands and flags, read from its `--help` output: what a
 * user sees is what the docs must agree with.
 */
import { execFileSync } from 'node:child_process';
import { CLI_MAIN } from '../support/run-built-cli.js';

/** One command's flags (long and short) and its subcommands, by name. */
export interface HelpNode {
  flags: Set<string>;
  commands: Map<string, HelpNode>;
}

function helpText(path: string[]): string {
  return execFileSync(process.execPath, [CLI_MAIN, ...path, '--help'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' },
  });
}

/** The lines of one `Name:` section of a help text. */
function section(text: string, name: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(`${name}:`);
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && /^\S/.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Reads the help of `path` (e.g. `['profiles']`) and of every subcommand below it. */
export function readHelp(path: string[] = []): HelpNode {
  const text = helpText(path);
  const flags = new Set<string>();
  for (const line of section(text, 'Options')) {
    const m = /^ {2}(?:(-\w), )?(--[\w-]+)/.exec(line);
    if (m?.[1]) flags.add(m[1]);
    if (m?.[2]) flags.add(m[2]);
  }
  const commands = new Map<string, HelpNode>();
  for (const line of section(text, 'Commands')) {
    const name = /^ {2}([a-z][\w-]*)/.exec(line)?.[1];
    if (name && name !== 'help') commands.set(name, readHelp([...path, name]));
  }
  return { flags, commands };
}
