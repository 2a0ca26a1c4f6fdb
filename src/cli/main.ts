#!/usr/bin/env node
import { ConfigError, InterpreterError, KeyError } from '../errors.js';
import { buildProgram } from './program.js';

const program = await buildProgram(process.argv[2]);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`reclamo: ${error instanceof Error ? error.message : String(error)}\n`);
  // Configuration, key and interpreter problems exit 2; anything else 1. A worker that
  // breaks mid-run arrives wrapped in a RunError, so only "no usable Python at all" is 2.
  const setup =
    error instanceof ConfigError || error instanceof KeyError || error instanceof InterpreterError;
  process.exit(setup ? 2 : 1);
});
