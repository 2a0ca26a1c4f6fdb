#!/usr/bin/env node
import { type Command, CommanderError } from 'commander';
import { ConfigError, InterpreterError, KeyError } from '../errors.js';
import { buildProgram } from './program.js';

// A reader that goes away (`reclamo run ... | head -1`) is not an error: the run is done
// and its trajectory written; stop writing instead of dying with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

const program = await buildProgram(process.argv[2]);
// Commander's usage errors (a bad flag value, an unknown option) throw instead of exiting,
// so they get the configuration exit code below.
const overrideExits = (command: Command): void => {
  command.exitOverride();
  for (const sub of command.commands) overrideExits(sub);
};
overrideExits(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  // Commander has already printed its message (or the help or version it was asked for).
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  process.stderr.write(`reclamo: ${error instanceof Error ? error.message : String(error)}\n`);
  // Configuration, key and interpreter problems exit 2; anything else 1. A worker that
  // breaks mid-run arrives wrapped in a RunError, so only "no usable Python at all" is 2.
  const setup =
    error instanceof ConfigError || error instanceof KeyError || error instanceof InterpreterError;
  process.exit(setup ? 2 : 1);
});
