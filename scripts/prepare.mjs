// `npm prepare`: build dist/ unless it is already newer than every input.
// `npx reclamo` in a fresh clone installs the project into npx's cache as a
// directory dependency, which runs `prepare` again; skipping an up-to-date
// build keeps that first call from recompiling everything.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const output = join(root, 'dist', 'cli', 'main.js');

function newest(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = 0;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

const inputs = [
  'src',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/copy-assets.mjs',
];
const latestInput = Math.max(
  ...inputs
    .map((p) => join(root, p))
    .filter(existsSync)
    .map(newest),
);
if (existsSync(output) && statSync(output).mtimeMs >= latestInput) {
  process.stderr.write('reclamo: dist/ is up to date, build skipped\n');
} else {
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
