/**
 * Wall time of the offline demo (needle 1,000,000 lines, oolong-lite 300
 * tickets) through the real harness. `npm run bench -- demo [runs]`.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { formatDemoTable, runDemo } from '../src/evals/demo.js';

const runs = Number(process.argv[2] ?? 3);
const logDir = join(process.cwd(), '.artifacts/bench-demo');
const walls: number[] = [];
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  const result = await runDemo({ logDir });
  walls.push((performance.now() - started) / 1000);
  if (i === runs - 1) console.log(formatDemoTable(result.rows));
}
walls.sort((a, b) => a - b);
console.log(
  `demo wall time over ${runs} runs: min ${walls[0]?.toFixed(1)} s, median ${walls[Math.floor(runs / 2)]?.toFixed(1)} s, max ${walls[runs - 1]?.toFixed(1)} s`,
);
await rm(logDir, { recursive: true, force: true });
