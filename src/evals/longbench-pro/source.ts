/**
 * Where the LongBench Pro file comes from: caskcsg/LongBench-Pro (Apache-2.0)
 * on Hugging Face, pinned to one revision and checked by its SHA-256. A mirror
 * is given with `--url` / RECLAMO_LONGBENCH_PRO_URL and, if its file differs,
 * `--sha256` / RECLAMO_LONGBENCH_PRO_SHA256.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { isRecord, safeParseJson } from '../../util/safe-json.js';

export const LONGBENCH_PRO_REPO = 'caskcsg/LongBench-Pro';
/** The dataset revision the hash below belongs to. */
export const LONGBENCH_PRO_REVISION = '4996884deae51f5e5d23c88da9d857fc54e5fa15';
export const LONGBENCH_PRO_FILE = 'longbench_pro.json';
export const LONGBENCH_PRO_SHA256 =
  '92ff05f6088e212d06c5a731ab86000b69cee6a0900cbbd524a25851e3c30de0';
export const LONGBENCH_PRO_BYTES = 531_535_940;
export const LONGBENCH_PRO_URL = `https://huggingface.co/datasets/${LONGBENCH_PRO_REPO}/resolve/${LONGBENCH_PRO_REVISION}/${LONGBENCH_PRO_FILE}`;

/** Where `download` puts the file and every other command looks for it. */
export function defaultLongBenchProDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.RECLAMO_LONGBENCH_PRO_DIR ?? join(homedir(), '.cache', 'reclamo', 'longbench-pro');
}

/** The URL and hash to download: flags first, then the environment, then the pinned ones. */
export function downloadSource(
  flags: { url?: string; sha256?: string },
  env: NodeJS.ProcessEnv = process.env,
): { url: string; sha256: string; pinned: boolean } {
  const url = flags.url ?? env.RECLAMO_LONGBENCH_PRO_URL ?? LONGBENCH_PRO_URL;
  const sha256 = flags.sha256 ?? env.RECLAMO_LONGBENCH_PRO_SHA256 ?? LONGBENCH_PRO_SHA256;
  return { url, sha256, pinned: url === LONGBENCH_PRO_URL && sha256 === LONGBENCH_PRO_SHA256 };
}

/** The side file `download` writes beside the dataset: where it came from and its checked hash. */
export const SOURCE_RECORD_FILE = 'longbench_pro.source.json';

export interface SourceRecord {
  url: string;
  sha256: string;
  bytes: number;
  downloadedAt?: string;
}

export async function writeSourceRecord(dir: string, record: SourceRecord): Promise<void> {
  const body = { ...record, downloadedAt: record.downloadedAt ?? new Date().toISOString() };
  await writeFile(join(dir, SOURCE_RECORD_FILE), `${JSON.stringify(body, null, 2)}\n`);
}

/** The source record beside a dataset file, when there is one. */
export async function readSourceRecord(datasetFile: string): Promise<SourceRecord | undefined> {
  const text = await readFile(join(dirname(datasetFile), SOURCE_RECORD_FILE), 'utf8').catch(
    () => undefined,
  );
  const parsed = text === undefined ? undefined : safeParseJson<SourceRecord>(text);
  return parsed?.ok && isRecord(parsed.value) ? parsed.value : undefined;
}
