#!/usr/bin/env node
import { ConfigError, KeyError } from '../errors.js';
import { buildProgram } from './program.js';

const program = await buildProgram(process.argv[2]);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`reclamo: ${error instanceof Error ? error.message : String(error)}\n`);
  // Configuration and key problems exit 2; anything else 1.
  process.exit(error instanceof ConfigError || error instanceof KeyError ? 2 : 1);
});
