/**
 * `reclamo trace show <id>`: a bounded view of one inference trace, or the
 * whole parsed trace with --json. Exit 2 when there is no such trace.
 */
import { Command } from 'commander';
import { parsePositiveIntegerOption } from '../options.js';
import { cliMessage } from './inference-flags.js';

interface ShowFlags {
  logDir: string;
  json?: boolean;
  maxChars: number;
}

/** The `trace` command and its subcommands. */
export function traceCommand(): Command {
  const trace = new Command('trace').description('read inference traces (inference:<id>)');
  trace
    .command('show')
    .description('print a bounded view of one inference trace')
    .argument('<id>', 'the trace id, with or without inference:')
    .option(
      '--log-dir <dir>',
      'folder the traces were written to (its inferences/ subfolder)',
      'runs',
    )
    .option('--json', 'print the parsed trace as JSON instead')
    .option('--max-chars <n>', 'characters of the view at most', parsePositiveIntegerOption, 20_000)
    .action(async (id: string, flags: ShowFlags) => {
      const { formatTrace, readTrace, TraceNotFoundError } = await import('../../infer/index.js');
      try {
        const parsed = await readTrace(id, { logDir: flags.logDir });
        process.stdout.write(
          flags.json
            ? `${JSON.stringify(parsed, null, 2)}\n`
            : `${formatTrace(parsed, { maxChars: flags.maxChars })}\n`,
        );
      } catch (error) {
        if (!(error instanceof TraceNotFoundError)) throw error;
        process.stderr.write(`reclamo: ${cliMessage(error.message)}\n`);
        process.exitCode = 2;
      }
    });
  return trace;
}
