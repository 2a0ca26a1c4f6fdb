import { Command, InvalidArgumentError } from 'commander';
import { exportRun } from '../../viewer/export.js';
import { startViewer } from '../../viewer/server.js';
import { checkViewTarget } from './view-target.js';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free one)');
  }
  return n;
}

/** `reclamo view [FILE|DIR]`: serve the trajectory viewer, or export one run to HTML. */
export function viewCommand(): Command {
  return new Command('view')
    .description(
      'Look at trajectories in the browser: lists the runs in DIR (default runs/) or opens FILE. Serves on 127.0.0.1 only.',
    )
    .argument('[path]', 'a trajectory .jsonl file or a directory of them', 'runs')
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', port, 0)
    .option(
      '--export <file.html>',
      'write one self-contained HTML page for the run FILE instead of serving',
    )
    .action(async (path: string, options: { port: number; export?: string }) => {
      // A missing or unreadable FILE is the caller's to fix: exit 2, like any bad argument.
      await checkViewTarget(path, options.export === undefined);
      if (options.export) {
        const result = await exportRun({ run: path, output: options.export });
        const missing = result.missing.length
          ? `; child trajectories not found: ${result.missing.join(', ')}`
          : '';
        process.stdout.write(
          `wrote ${result.output} (${result.bytes.toLocaleString('en-US')} bytes, ${result.runs} trajector${result.runs === 1 ? 'y' : 'ies'}${missing})\n`,
        );
        return;
      }
      const viewer = await startViewer({ path, port: options.port });
      process.stdout.write(`reclamo view: ${viewer.dir}\n${viewer.url}\n(Ctrl-C to stop)\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          viewer.close().then(resolve, resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}
