import type { Command } from 'commander';
import { rootCommand } from './root-command.js';

type Register = (program: Command) => void;

/**
 * Each subcommand's module, loaded on demand: a command pays at start-up only
 * for its own imports (the model layer, the viewer, the task generators), not
 * for the others'.
 */
const commands: Record<string, () => Promise<Register>> = {
  run: async () => (await import('./commands/run.js')).registerRunCommand,
  demo: async () => (await import('./commands/demo.js')).registerDemoCommand,
  tasks: async () => (await import('./commands/tasks.js')).registerTasksCommand,
  bench: async () => (await import('./commands/bench.js')).registerBenchCommand,
  eval: async () => (await import('./commands/eval.js')).registerEvalCommand,
  profiles: async () => {
    const { profilesCommand } = await import('./commands/profiles.js');
    return (program) => program.addCommand(profilesCommand());
  },
  'mock-server': async () => (await import('./commands/mock-server.js')).registerMockServer,
  ping: async () => (await import('./commands/ping.js')).registerPing,
  infer: async () => (await import('./commands/infer.js')).registerInferCommand,
  map: async () => (await import('./commands/map.js')).registerMapCommand,
  trace: async () => {
    const { traceCommand } = await import('./commands/trace.js');
    return (program) => program.addCommand(traceCommand());
  },
  view: async () => {
    const { viewCommand } = await import('./commands/view.js');
    return (program) => program.addCommand(viewCommand());
  },
};

/**
 * The `reclamo` command; each subcommand is a thin layer over the library.
 * Given the name of a known subcommand, only that one is registered; otherwise
 * (help, unknown names) all of them are, so commander can list or refuse them.
 */
export async function buildProgram(only?: string): Promise<Command> {
  const program = rootCommand();
  const load = only === undefined ? undefined : commands[only];
  const loaders = load ? [load] : Object.values(commands);
  for (const register of await Promise.all(loaders.map((l) => l()))) register(program);
  return program;
}
