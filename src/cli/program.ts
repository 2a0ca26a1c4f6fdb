import { Command } from 'commander';
import { registerMockServer } from './commands/mock-server.js';
import { registerPing } from './commands/ping.js';
import { profilesCommand } from './commands/profiles.js';
import { registerTasksCommand } from './commands/tasks.js';
import { viewCommand } from './commands/view.js';

/** The `reclamo` command and its subcommands; each is a thin layer over the library. */
export function buildProgram(): Command {
  const program = new Command('reclamo')
    .description('Recursive Language Model harness: answer questions about inputs of any size.')
    .version('0.1.0');
  registerTasksCommand(program);
  program.addCommand(profilesCommand());
  registerMockServer(program);
  registerPing(program);
  program.addCommand(viewCommand());
  return program;
}
