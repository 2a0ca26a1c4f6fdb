/** `reclamo eval longbench-pro download | stats | run`. */
import { join } from 'node:path';
import type { Command } from 'commander';
import { downloadFile } from '../../evals/download.js';
import { EvalConfigError } from '../../evals/errors.js';
import { readExamHashes } from '../../evals/exam/hash-file.js';
import {
  buildCatalog,
  checkBucket,
  filterItems,
  type ItemFilter,
} from '../../evals/longbench-pro/catalog.js';
import type { ItemKind } from '../../evals/longbench-pro/kinds.js';
import { runLongBenchPro } from '../../evals/longbench-pro/run.js';
import {
  defaultLongBenchProDir,
  downloadSource,
  LONGBENCH_PRO_BYTES,
  LONGBENCH_PRO_FILE,
  LONGBENCH_PRO_REVISION,
  writeSourceRecord,
} from '../../evals/longbench-pro/source.js';
import { parseSplit } from '../../evals/longbench-pro/splits.js';
import { formatStats } from '../../evals/longbench-pro/stats.js';
import { parseListOption, parsePositiveIntegerOption } from '../options.js';
import { ProgressBar } from '../progress-bar.js';
import { addBenchFlags, type BenchFlags, runRows } from './bench-flags.js';

interface SelectFlags {
  dir?: string;
  file?: string;
  split?: string;
  maxBucket?: string;
  tasks?: string[];
  kinds?: string[];
  includeUnscored?: boolean;
  examHashes?: string;
}

const KINDS: ItemKind[] = ['mc', 'mc-multi', 'open'];

function addSelectFlags(command: Command): Command {
  return command
    .option(
      '--dir <dir>',
      `dataset folder (default: $RECLAMO_LONGBENCH_PRO_DIR, else ${defaultLongBenchProDir({})})`,
    )
    .option('--file <path>', `the dataset file itself (default: DIR/${LONGBENCH_PRO_FILE})`)
    .option('--split <split>', 'practice, practice-dev or held-out')
    .option('--max-bucket <b>', 'largest length bucket to keep: 8k, 16k, 32k, 64k, 128k, 256k')
    .option(
      '--tasks <list>',
      'task codes to keep, comma-separated (T3.2, or T3 for all of T3)',
      parseListOption,
    )
    .option('--kinds <list>', 'item kinds to keep: mc, mc-multi, open', parseListOption)
    .option('--include-unscored', 'keep T4 summaries (they stay unscored: no embedding model)')
    .option(
      '--exam-hashes <file>',
      'refuse items matching this exam hash list (reclamo eval independent exam-hashes)',
    );
}

function datasetFile(flags: SelectFlags): string {
  return flags.file ?? join(flags.dir ?? defaultLongBenchProDir(), LONGBENCH_PRO_FILE);
}

function itemFilter(flags: SelectFlags): ItemFilter {
  const kinds = flags.kinds?.map((k) => {
    if (!KINDS.includes(k as ItemKind)) {
      throw new EvalConfigError(`unknown kind "${k}" in --kinds; kinds are ${KINDS.join(', ')}`);
    }
    return k as ItemKind;
  });
  return {
    ...(flags.split ? { split: parseSplit(flags.split) } : {}),
    ...(flags.maxBucket ? { maxBucket: checkBucket(flags.maxBucket) } : {}),
    ...(flags.tasks ? { tasks: flags.tasks } : {}),
    ...(kinds ? { kinds } : {}),
    ...(flags.includeUnscored ? { includeUnscored: true } : {}),
  };
}

async function examHashes(flags: SelectFlags): Promise<Set<string> | undefined> {
  return flags.examHashes === undefined ? undefined : readExamHashes(flags.examHashes);
}

export function registerLongBenchPro(parent: Command): void {
  const group = parent
    .command('longbench-pro')
    .description(
      'LongBench Pro (caskcsg/LongBench-Pro, 1,500 items on real documents): download, stats, run',
    );

  group
    .command('download')
    .description(
      `fetch ${LONGBENCH_PRO_FILE} at revision ${LONGBENCH_PRO_REVISION.slice(0, 12)} and check its SHA-256 (resumable)`,
    )
    .option(
      '--dir <dir>',
      `where to put it (default: $RECLAMO_LONGBENCH_PRO_DIR, else ${defaultLongBenchProDir({})})`,
    )
    .option(
      '--url <url>',
      'download from this URL instead (a mirror; or $RECLAMO_LONGBENCH_PRO_URL)',
    )
    .option(
      '--sha256 <hex>',
      "the mirror's file hash, if it differs (or $RECLAMO_LONGBENCH_PRO_SHA256)",
    )
    .action(async (flags: { dir?: string; url?: string; sha256?: string }) => {
      const dir = flags.dir ?? defaultLongBenchProDir();
      const source = downloadSource(flags);
      const dest = join(dir, LONGBENCH_PRO_FILE);
      const bar = ProgressBar.onStderr('bytes');
      process.stderr.write(`reclamo: downloading ${source.url}\n`);
      try {
        const result = await downloadFile({
          url: source.url,
          dest,
          sha256: source.sha256,
          ...(source.pinned ? { expectedBytes: LONGBENCH_PRO_BYTES } : {}),
          onProgress: (p) =>
            bar?.update(
              p.bytes,
              p.total,
              p.resumedFrom > 0
                ? `resumed at ${p.resumedFrom.toLocaleString('en-US')} bytes`
                : undefined,
            ),
        });
        bar?.clear();
        await writeSourceRecord(dir, {
          url: source.url,
          sha256: result.sha256,
          bytes: result.bytes,
        });
        process.stderr.write(
          result.alreadyPresent
            ? `reclamo: ${dest} is already there and its SHA-256 matches\n`
            : `reclamo: ${dest}: ${result.bytes.toLocaleString('en-US')} bytes, SHA-256 ${result.sha256} (checked)\n`,
        );
      } finally {
        bar?.clear();
      }
    });

  addSelectFlags(
    group
      .command('stats')
      .description(
        'counts, sizes and token estimates per task x kind x split, and per length bucket',
      ),
  ).action(async (flags: SelectFlags) => {
    const filter = itemFilter(flags);
    const file = datasetFile(flags);
    const exam = await examHashes(flags);
    const catalog = await buildCatalog(file, exam ? { examHashes: exam } : {});
    process.stdout.write(`${formatStats(catalog, filterItems(catalog.items, filter))}\n`);
  });

  const run = addSelectFlags(
    group
      .command('run')
      .description(
        'run the selected items through the rlm and plain modes, each scored by its task metric',
      ),
  ).option(
    '--limit <n>',
    'run at most this many items (the first in file order)',
    parsePositiveIntegerOption,
  );
  addBenchFlags(run, 'longbench-pro');
  run.action(async (flags: SelectFlags & BenchFlags & { limit?: number }) => {
    const filter = itemFilter(flags);
    const file = datasetFile(flags);
    const exam = await examHashes(flags);
    await runRows(flags, 'longbench-pro', (common) =>
      runLongBenchPro({
        ...common,
        file,
        filter,
        ...(exam ? { examHashes: exam } : {}),
        ...(flags.limit !== undefined ? { limit: flags.limit } : {}),
      }),
    );
  });
}
