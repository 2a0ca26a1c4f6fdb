/**
 * The program for `reclamo run` alone: it loads none of the other commands'
 * modules, so a run's start-up pays only for what the run uses.
 */
import type { Command } from 'commander';
import { registerRunCommand } from './commands/run.js';
import { rootCommand } from './root-command.js';

export function buildRunProgram(): Command {
  const program = rootCommand();
  registerRunCommand(program);
  return program;
}
