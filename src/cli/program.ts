import { Command } from 'commander';
import { registerBenchCommand } from './commands/bench.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerEvalCommand } from './commands/eval.js';
import { registerMockServer } from './commands/mock-server.js';
import { registerPing } from './commands/ping.js';
import { profilesCommand } from './commands/profiles.js';
import { registerRunCommand } from './commands/run.js';
import { registerTasksCommand } from './commands/tasks.js';
import { viewCommand } from './commands/view.js';

/**
 * The `reclamo` command and its subcommands; each is a thin layer over the library.
 * For `reclamo run` only that command is registered, so start-up does not load the
 * other commands' modules (the run's own cost starts at the first byte of work).
 */
export function buildProgram(argv: readonly string[] = process.argv): Command {
  const program = new Command('reclamo')
    .description('Recursive Language Model harness: answer questions about inputs of any size.')
    .version('0.1.0');
  registerRunCommand(program);
  if (argv[2] === 'run') return program;
  registerDemoCommand(program);
  registerTasksCommand(program);
  registerBenchCommand(program);
  registerEvalCommand(program);
  program.addCommand(profilesCommand());
  registerMockServer(program);
  registerPing(program);
  program.addCommand(viewCommand());
  return program;
}
