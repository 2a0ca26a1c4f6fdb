import { Command } from 'commander';

/** The bare `reclamo` command, before any subcommand is registered. */
export function rootCommand(): Command {
  return (
    new Command('reclamo')
      .description('Recursive Language Model harness: answer questions about inputs of any size.')
      .version('0.1.0')
      // A command's options come before its subcommand, so `eval --tasks` and
      // `eval independent --tasks` are each their own command's flag.
      .enablePositionalOptions()
  );
}
