// Copies the non-TypeScript files the package needs at run time (the Python
// worker, viewer assets) from src/ into dist/, keeping their relative paths.
import { cpSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const assetExtensions = ['.py', '.html', '.css', '.js', '.txt', '.md'];

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
    } else if (assetExtensions.some((ext) => name.endsWith(ext))) {
      cpSync(path, join(dist, relative(src, path)));
    }
  }
}

walk(src);
