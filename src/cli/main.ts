#!/usr/bin/env node
import type { Command } from 'commander';
import { ConfigError, KeyError } from '../errors.js';

// `reclamo run` loads only its own command; everything else gets the full program.
const program: Command =
  process.argv[2] === 'run'
    ? (await import('./run-program.js')).buildRunProgram()
    : (await import('./program.js')).buildProgram();

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`reclamo: ${error instanceof Error ? error.message : String(error)}\n`);
  // Configuration and key problems exit 2; anything else 1.
  process.exit(error instanceof ConfigError || error instanceof KeyError ? 2 : 1);
});
