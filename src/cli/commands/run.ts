/** `reclamo run`: answer a question about a context (file, folder or stdin). */
import type { Command } from 'commander';
import type { RunOptions, RunResult, RunStatus } from '../../rlm/run.js';
import type { ContextShape } from '../../sandbox/sandbox.js';
import type { TrajectoryEvent } from '../../trace/events.js';
import {
  addModelFlags,
  inlineFromFlags,
  type ModelFlags,
  profileFromFlags,
} from '../model-flags.js';
import { addRunFlags, type RunFlags, runOverrides } from './run-flags.js';

/** `reclamo run`'s flags: the model, the run settings, and what only a single run has. */
interface RunCommandFlags extends ModelFlags, RunFlags {
  context: string;
  query: string;
  logDir: string;
  verbose?: boolean;
  thinking: boolean;
  subThinking?: boolean;
  json?: boolean;
  sft?: boolean;
  python?: string;
}

/**
 * Exit codes: 0 answer, 1 endpoint or mid-run sandbox failure, 2 configuration, key or no
 * usable Python (InterpreterError, mapped in main.ts), 3 a limit stopped the run, or it
 * ended with no answer at all (an empty answer is never a success); 130 cancelled (Ctrl-C).
 */
export function exitCodeFor(stopReason: RunResult['stopReason'], answer: string): number {
  if (stopReason === 'token_budget' || stopReason === 'error_limit') return 3;
  return answer.trim() === '' ? 3 : 0;
}

/** Registers `run` on the program. */
export function registerRunCommand(program: Command): void {
  const command = program
    .command('run')
    .description(
      'answer a question about a context of any size by driving a model through a Python REPL',
    )
    .requiredOption(
      '-c, --context <path>',
      'a text file, a folder (loaded as {relative path: text}), or - for stdin',
    )
    .requiredOption('-q, --query <question>', 'the question');
  addModelFlags(command)
    .option('--log-dir <dir>', 'where trajectories go', 'runs')
    .option('--verbose', "print each turn's response, code and output to stderr")
    .option('--no-thinking', 'turn thinking off on root turns')
    .option('--sub-thinking', 'turn thinking on for sub-calls')
    .option(
      '--json',
      'print the result (answer, turns, sub-calls, usage, stop reason, trajectory path) as JSON',
    )
    .option('--sft', 'also write <trajectory>.sft.jsonl, one line per root turn')
    .option('--python <path>', 'Python interpreter for the REPL');
  addRunFlags(command).action(async (flags: RunCommandFlags) => {
    process.exitCode = await runCommand(flags);
  });
}
async function runCommand(flags: RunCommandFlags): Promise<number> {
  // The library loads only once the flags are valid.
  const { run, RunError } = await import('../../rlm/run.js');
  const status = process.stderr.isTTY ? new StatusLine() : undefined;
  const options: RunOptions = {
    query: flags.query,
    context: flags.context,
    logDir: flags.logDir,
    thinking: flags.thinking,
    ...(await profileOption(flags)),
    ...runOverrides(flags),
    ...(flags.subThinking ? { subThinking: true } : {}),
    ...(flags.sft ? { sft: true } : {}),
    ...(flags.python !== undefined ? { python: flags.python } : {}),
    onEvent: (e: TrajectoryEvent, depth: number) => {
      if (e.type === 'metadata' && depth === 0) skippedNote(e.context, status);
      if (flags.verbose) verbose(e, depth, status);
    },
    ...(status ? { onStatus: (s: RunStatus) => status.update(s) } : {}),
  };
  if (flags.thinking) delete options.thinking;
  // Ctrl-C (or SIGTERM) stops the run cleanly: the running block is interrupted, the
  // trajectory gets its final record and any partial answer is printed. A second one quits.
  const cancel = new AbortController();
  options.abortSignal = cancel.signal;
  const onSignal = (signal: NodeJS.Signals) => {
    if (cancel.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    status?.clear();
    process.stderr.write(
      `reclamo: ${signal}: stopping the run (press Ctrl-C again to quit at once)\n`,
    );
    cancel.abort(new Error(`cancelled by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let result: RunResult;
  let code: number;
  try {
    result = await run(options);
    code = exitCodeFor(result.stopReason, result.answer);
  } catch (error) {
    status?.clear();
    if (!(error instanceof RunError)) throw error;
    process.stderr.write(`reclamo: ${error.message}\n`);
    result = error.result;
    code = 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (result.stopReason === 'aborted') code = 130;
  status?.clear();
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    if (result.answer !== '') process.stdout.write(`${result.answer}\n`);
    else if (code === 3 || code === 130) process.stderr.write(`reclamo: ${noAnswer(result)}\n`);
    process.stderr.write(
      `reclamo: ${result.stopReason}, ${result.turns} turns, ${result.subcalls} sub-calls, ${(result.elapsedMs / 1000).toFixed(1)} s; trajectory ${result.trajectoryPath}\n`,
    );
  }
  return code;
}

/** `--profile` as a name for run() to load, or the profile the model flags make. */
async function profileOption(flags: ModelFlags): Promise<Pick<RunOptions, 'profile'>> {
  const inline = Object.keys(inlineFromFlags(flags)).length > 0;
  if (inline) return { profile: await profileFromFlags(flags) };
  return flags.profile !== undefined ? { profile: flags.profile } : {};
}

/** Why there is no answer, in the user's terms, with what to do about it. */
function noAnswer(result: RunResult): string {
  const why: Partial<Record<RunResult['stopReason'], string>> = {
    aborted: 'the run was cancelled before the model answered',
    context_overflow:
      "the root request no longer fits the model's window (see the trajectory's context_overflow record). If the question itself is long, put that text in the context and ask a short question; else raise context_tokens in the profile",
  };
  return `no answer: ${why[result.stopReason] ?? 'the model gave no usable final answer and the REPL held none'} (stop reason ${result.stopReason}). The trajectory shows every turn.`;
}

/** Says on stderr when a context file was not UTF-8, or a folder had files that could not be loaded. */
function skippedNote(shape: ContextShape, status: StatusLine | undefined): void {
  if (shape.invalidUtf8At !== undefined) {
    status?.clear();
    process.stderr.write(
      `reclamo: note: the context file is not valid UTF-8 (first bad byte at offset ${shape.invalidUtf8At}); bad bytes were replaced by U+FFFD. If it is another encoding, convert it first (iconv -f UTF-16 -t UTF-8, or -f LATIN1); if it is not text (a PDF, an archive), extract its text first.\n`,
    );
  }
  const s = shape.skipped;
  if (!s || s.notUtf8 + (s.unreadable ?? 0) === 0) return;
  status?.clear();
  process.stderr.write(
    `reclamo: note: loaded ${shape.partLengths.length} files from the context folder; skipped ${s.notUtf8} not UTF-8 text, ${s.unreadable ?? 0} unreadable, ${s.hidden} hidden\n`,
  );
}

function verbose(event: TrajectoryEvent, depth: number, status: StatusLine | undefined): void {
  if (event.type !== 'iteration' && event.type !== 'forced_finish') return;
  status?.clear();
  const pad = depth > 0 ? `[depth ${depth}] ` : '';
  const out: string[] = [];
  if (event.type === 'forced_finish') {
    out.push(`${pad}== forced finish (${event.reason}) from ${event.source}`, event.answer);
  } else {
    out.push(`${pad}== turn ${event.turn}`, event.content);
    event.blocks.forEach((b, i) => {
      const r = b.result;
      const body = r
        ? [r.stdout, r.stderr, r.error ? `${r.error.type}: ${r.error.message}` : '']
        : [`skipped: ${b.skipped}`];
      out.push(`-- output of block ${i + 1}`, body.filter(Boolean).join('\n').trimEnd());
    });
    for (const n of event.nudges) out.push(`-- nudge (${n.kind}): ${n.text}`);
  }
  process.stderr.write(`${out.join('\n')}\n`);
}

/** One line on a terminal's stderr, redrawn in place. */
class StatusLine {
  private shown = false;

  update(s: RunStatus): void {
    const secs = (ms: number) => `${Math.round(ms / 1000)}s`;
    const line = `turn ${s.turn}/${s.maxIterations}${s.depth > 0 ? ` (depth ${s.depth})` : ''} · sub-calls ${s.subcalls} · tokens ${s.inputTokens} in / ${s.outputTokens} out · ${secs(s.elapsedMs)} elapsed · ${secs(s.timeLeftMs)} left`;
    process.stderr.write(`\r\x1b[2K${line}`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) process.stderr.write('\r\x1b[2K');
    this.shown = false;
  }
}
