import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadError, downloadFile } from '../../src/evals/download.js';
import { sha256Hex } from '../../src/util/sha256.js';
import { type FileServer, startFileServer } from '../support/file-server.js';

const dir = resolve('.artifacts/test/download');
const body = Buffer.from(Array.from({ length: 300_000 }, (_, i) => `line ${i}\n`).join(''));
const sha256 = sha256Hex(body);
let server: FileServer | undefined;

function fresh(name: string): string {
  const d = join(dir, name);
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  return join(d, 'data.json');
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('downloadFile', () => {
  it('downloads, checks the hash, and reports progress up to the size', async () => {
    server = await startFileServer(body);
    const dest = fresh('plain');
    const seen: number[] = [];
    const result = await downloadFile({
      url: server.url,
      dest,
      sha256,
      onProgress: (p) => {
        expect(p.total).toBe(body.length);
        seen.push(p.bytes);
      },
    });
    expect(result).toMatchObject({ bytes: body.length, resumedFrom: 0, alreadyPresent: false });
    expect(readFileSync(dest).equals(body)).toBe(true);
    expect(seen.at(-1)).toBe(body.length);
    expect(existsSync(`${dest}.part`)).toBe(false);
    // A second run finds the checked file and downloads nothing.
    const again = await downloadFile({ url: server.url, dest, sha256 });
    expect(again.alreadyPresent).toBe(true);
    expect(server.ranges).toHaveLength(1);
  });

  it('resumes a cut download with a Range request from where the part ends', async () => {
    server = await startFileServer(body, { cutFirstAfter: 100_000 });
    const dest = fresh('resume');
    const first = await downloadFile({ url: server.url, dest, sha256 }).catch((e) => e);
    expect(first).toBeInstanceOf(DownloadError);
    expect((first as DownloadError).partial).toBe(true);
    expect((first as Error).message).toContain('Run the same command again to resume');
    const kept = statSync(`${dest}.part`).size;
    expect(kept).toBeGreaterThan(0);
    const second = await downloadFile({ url: server.url, dest, sha256 });
    expect(server.ranges).toEqual(['', `bytes=${kept}-`]);
    expect(second.resumedFrom).toBe(kept);
    expect(readFileSync(dest).equals(body)).toBe(true);
  });

  it('starts over when the server ignores Range and sends the whole file', async () => {
    server = await startFileServer(body, { ignoreRange: true });
    const dest = fresh('no-range');
    writeFileSync(`${dest}.part`, body.subarray(0, 5000));
    const result = await downloadFile({ url: server.url, dest, sha256 });
    expect(result.resumedFrom).toBe(0);
    expect(readFileSync(dest).equals(body)).toBe(true);
  });

  it('finishes a part that already holds the whole file (416)', async () => {
    server = await startFileServer(body);
    const dest = fresh('complete-part');
    writeFileSync(`${dest}.part`, body);
    await downloadFile({ url: server.url, dest, sha256 });
    expect(readFileSync(dest).equals(body)).toBe(true);
  });

  it('refuses a file whose hash differs and deletes it, naming both hashes and the fix', async () => {
    server = await startFileServer(body);
    const dest = fresh('bad-hash');
    const wrong = '0'.repeat(64);
    const error = (await downloadFile({ url: server.url, dest, sha256: wrong }).catch(
      (e) => e,
    )) as DownloadError;
    expect(error.message).toContain(sha256);
    expect(error.message).toContain(wrong);
    expect(error.message).toContain('--sha256');
    expect(existsSync(dest) || existsSync(`${dest}.part`)).toBe(false);
  });

  it('names the status and the URL flag for a server that says no', async () => {
    server = await startFileServer(body, { status: 404 });
    const dest = fresh('404');
    await expect(downloadFile({ url: server.url, dest, sha256 })).rejects.toThrow(
      /HTTP 404.*--url/,
    );
  });

  it('does not overwrite an existing file with another hash', async () => {
    server = await startFileServer(body);
    const dest = fresh('existing');
    writeFileSync(dest, 'something else');
    await expect(downloadFile({ url: server.url, dest, sha256 })).rejects.toThrow(
      /exists but its SHA-256/,
    );
    expect(readFileSync(dest, 'utf8')).toBe('something else');
  });
});
