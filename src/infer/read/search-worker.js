// Runs one regex search over a list of files in a worker thread, so a pattern
// that backtracks without end can be stopped by terminating the thread.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { pattern, flags, files, maxMatches, maxLineChars } = workerData;
const matches = [];
let error;
try {
  const regex = new RegExp(pattern, flags);
  search: for (const file of files) {
    const lines = readFileSync(file.path, 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      regex.lastIndex = 0;
      if (!regex.test(line)) continue;
      const text = line.length > maxLineChars ? `${line.slice(0, maxLineChars)}...` : line;
      matches.push({ file: file.shown, line: i + 1, text });
      if (matches.length >= maxMatches) break search;
    }
  }
} catch (caught) {
  error = caught instanceof Error ? caught.message : String(caught);
}
parentPort.postMessage({ matches, error });
