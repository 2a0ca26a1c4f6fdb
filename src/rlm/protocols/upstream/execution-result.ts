/**
 * One executed block as the upstream release reports it back to the model:
 * a user message echoing the code, then the REPL output (stdout, stderr and
 * the list of plain-typed variables), cut at 20,000 characters.
 */
import type { ExecResult } from '../../../sandbox/sandbox.js';
import type { HeadTail } from '../../../util/head-tail.js';
import { pyHead, pyLen, pyListRepr } from './python-repr.js';

/** Upstream cuts each block's formatted output at this many characters. */
export const UPSTREAM_OUTPUT_LIMIT = 20_000;

/**
 * Type names upstream lists (it keeps values that are instances of str, int,
 * float, bool, list, dict or tuple); the collections dict subclasses pass
 * that test too.
 */
const LISTED_TYPES = new Set([
  'str',
  'int',
  'float',
  'bool',
  'list',
  'dict',
  'tuple',
  'OrderedDict',
  'defaultdict',
  'Counter',
]);

/** What one block produced, as the formatter needs it. */
export interface UpstreamBlockOutput {
  stdout: string;
  stderr: string;
  /** The REPL's variables after the block, in definition order. */
  variables: readonly { name: string; type: string }[];
}

/** Names of the variables upstream would list: no leading `_`, plain types, none of `hidden`. */
export function listedVariableNames(
  variables: UpstreamBlockOutput['variables'],
  hidden: ReadonlySet<string> = new Set(),
): string[] {
  return variables
    .filter((v) => !v.name.startsWith('_') && LISTED_TYPES.has(v.type) && !hidden.has(v.name))
    .map((v) => v.name);
}

/**
 * The `<result>` part: `"\n" + stdout`, `"\n" + stderr` and
 * `REPL variables: [...]\n`, each when present, joined by blank lines;
 * `No output` when there is nothing.
 */
export function formatUpstreamResult(
  output: UpstreamBlockOutput,
  hidden?: ReadonlySet<string>,
): string {
  const parts: string[] = [];
  if (output.stdout !== '') parts.push(`\n${output.stdout}`);
  if (output.stderr !== '') parts.push(`\n${output.stderr}`);
  const names = listedVariableNames(output.variables, hidden);
  if (names.length > 0) parts.push(`REPL variables: ${pyListRepr(names)}\n`);
  return parts.length > 0 ? parts.join('\n\n') : 'No output';
}

/**
 * Cut a result longer than `limit` characters (Python's count) the way
 * upstream does: the head only, then how many were left out.
 */
export function cutUpstreamResult(result: string, limit = UPSTREAM_OUTPUT_LIMIT): HeadTail {
  const length = pyLen(result);
  if (length <= limit) return { text: result, cut: 0 };
  const cut = length - limit;
  return { text: `${pyHead(result, limit)}... + [${cut} chars...]`, cut };
}

/** The whole user message for one executed block. */
export function upstreamExecutionMessage(code: string, result: string): string {
  return `Code executed:\n\`\`\`python\n${code}\n\`\`\`\n\nREPL output:\n${result}`;
}

/**
 * Our execution result in upstream's terms. As upstream does, an exception
 * is appended to stderr as `\n<Type>: <message>`; we add its line number,
 * and say so when the block timed out or the REPL had to be restarted.
 */
export function upstreamBlockOutput(
  result: ExecResult,
  variables: UpstreamBlockOutput['variables'],
): UpstreamBlockOutput {
  let stderr = result.stderr;
  if (result.error) {
    const where = result.error.line !== undefined ? ` (line ${result.error.line})` : '';
    stderr += `\n${result.error.type}: ${result.error.message}${where}`;
  }
  if (result.timedOut) stderr += '\nThe execution hit its time limit and was stopped.';
  if (result.restarted) {
    stderr += `\nThe REPL was restarted (${result.restarted.reason}); every variable you made is gone and context was reloaded.`;
  }
  let stdout = result.stdout;
  if (result.stdoutOverflow) {
    stdout += `\n[stdout: ${result.stdoutChars} characters written, only the first part kept]`;
  }
  return { stdout, stderr, variables };
}
