import type { Command } from 'commander';
import { registerBenchCommand } from './commands/bench.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerEvalCommand } from './commands/eval.js';
import { registerMockServer } from './commands/mock-server.js';
import { registerPing } from './commands/ping.js';
import { profilesCommand } from './commands/profiles.js';
import { registerRunCommand } from './commands/run.js';
import { registerTasksCommand } from './commands/tasks.js';
import { viewCommand } from './commands/view.js';
import { rootCommand } from './root-command.js';

/** The `reclamo` command and its subcommands; each is a thin layer over the library. */
export function buildProgram(): Command {
  const program = rootCommand();
  registerRunCommand(program);
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
