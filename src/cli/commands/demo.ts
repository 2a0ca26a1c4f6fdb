/** `reclamo demo`: the whole harness offline, on needle and oolong-lite, with no key and no server. */
import { isAbsolute, relative } from 'node:path';
import type { Command } from 'commander';
import { DEMO_CAVEAT, formatDemoTable, runDemo } from '../../evals/demo.js';
import { parseIntegerOption, parseRateOption } from '../options.js';

interface DemoFlags {
  lines: number;
  tickets: number;
  seed: number;
  logDir: string;
  subErrorRate?: number;
  outputTruncateChars?: number;
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'run the harness end to end offline (scripted models on a local mock server): needle and oolong-lite',
    )
    .option('--lines <n>', 'needle size in lines', parseIntegerOption, 1_000_000)
    .option('--tickets <n>', 'oolong-lite size in tickets', parseIntegerOption, 300)
    .option('--seed <n>', 'generator seed', parseIntegerOption, 0)
    .option('--log-dir <dir>', 'where trajectories go', 'runs')
    .option(
      '--sub-error-rate <r>',
      'share of ticket labels the scripted reader gets wrong (0 to 1)',
      parseRateOption,
    )
    .option(
      '--output-truncate-chars <n>',
      'REPL output shown to the root model per block (try 1 to watch the policies fail)',
      parseIntegerOption,
    )
    .action(async (flags: DemoFlags) => {
      const started = performance.now();
      process.stderr.write(
        `reclamo demo: needle (${flags.lines.toLocaleString('en-US')} lines) and oolong-lite (${flags.tickets} tickets), offline\n`,
      );
      const result = await runDemo({
        needleLines: flags.lines,
        tickets: flags.tickets,
        seed: flags.seed,
        logDir: flags.logDir,
        ...(flags.subErrorRate === undefined ? {} : { subErrorRate: flags.subErrorRate }),
        ...(flags.outputTruncateChars === undefined
          ? {}
          : { overrides: { outputTruncateChars: flags.outputTruncateChars } }),
      });
      process.stdout.write(`\n${formatDemoTable(result.rows)}\n\n${wrap(DEMO_CAVEAT, 88)}\n\n`);
      process.stdout.write(
        `Trajectories (one JSONL file per run) are in ${shown(result.logDir)}/:\n`,
      );
      for (const row of result.rows) {
        if (row.trajectory) process.stdout.write(`  ${shown(row.trajectory)}\n`);
      }
      process.stdout.write('Look at one in a browser with: npx reclamo view <file>\n');
      process.stderr.write(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
      if (result.rows.some((r) => r.status !== 'ok')) process.exitCode = 1;
    });
}

/** A path relative to the working directory when it lies inside it. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** Wrap prose at a width, on spaces. */
export function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}
