/**
 * Benchmark dispatcher: `npm run bench -- <name> [args]` runs bench/<name>.ts.
 * Benchmarks print numbers; they assert nothing and never run in `npm test`.
 */
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3));
const [name, ...rest] = process.argv.slice(2);

if (!name || !available.includes(name)) {
  process.stderr.write(
    `usage: npm run bench -- <name> [args]\navailable: ${available.join(', ') || '(none yet)'}\n`,
  );
  process.exit(name ? 2 : 0);
}
process.argv = [process.argv[0] ?? 'node', `${here}/${name}.ts`, ...rest];
await import(pathToFileURL(`${here}/${name}.ts`).href);
