/**
 * `reclamo view` through the built CLI: a FILE that is missing or cannot be
 * read is a usage error, exit 2 with a message naming it, and nothing is
 * served or written; a readable one still exports.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshDir } from '../../rlm/helpers.js';
import { otherUserSkipReason, publicTempDir } from '../../support/other-user.js';
import { runCli } from '../../support/run-built-cli.js';

const FIXTURE = fileURLToPath(
  new URL('../../fixtures/trajectories/reclamo-v1/20261007T094618Z-6d710f.jsonl', import.meta.url),
);
const dir = freshDir('cli-view');
// Root reads everything, so the unreadable case runs the CLI as another user (other-user.ts).
const asUser = { asOtherUser: true };
const skipReason = otherUserSkipReason();
if (skipReason) process.stderr.write(`unreadable-file view test skipped: ${skipReason}\n`);
// A serving viewer never exits on its own; a bug that starts one fails fast instead of hanging.
const view = (args: string[], extra = {}) =>
  runCli(['view', ...args], { home: dir, killAfterMs: 20_000, ...extra });

describe('reclamo view FILE', () => {
  it('a missing file exits 2 naming it, when serving and when exporting', async () => {
    const missing = join(dir, 'no-such-run.jsonl');
    const out = join(dir, 'page.html');
    for (const args of [[missing], ['--export', out, missing]]) {
      const res = await view(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toContain(`"${missing}" does not exist`);
      expect(res.stderr).toContain('Pass a trajectory .jsonl file');
      expect(res.stdout).toBe('');
    }
    expect(existsSync(out)).toBe(false);
  });

  it.skipIf(skipReason !== undefined)(
    'an unreadable file exits 2 naming it and the fix; a readable one exports',
    async () => {
      // A folder the other user can reach, wherever the checkout is.
      const open = publicTempDir('view');
      chmodSync(open, 0o777);
      const locked = join(open, 'locked.jsonl');
      copyFileSync(FIXTURE, locked);
      chmodSync(locked, 0o000);
      const readable = join(open, 'readable.jsonl');
      copyFileSync(FIXTURE, readable);
      chmodSync(readable, 0o644);
      const out = join(open, 'page.html');
      for (const args of [[locked], ['--export', out, locked]]) {
        const res = await view(args, asUser);
        expect(res.code, args.join(' ')).toBe(2);
        expect(res.stderr).toContain(`"${locked}" cannot be read: permission denied (EACCES)`);
        expect(res.stderr).toContain('chmod u+r');
        expect(res.stdout).toBe('');
      }
      expect(existsSync(out)).toBe(false);

      const ok = await view(['--export', out, readable], asUser);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(/^wrote .*page\.html/);
      expect(existsSync(out)).toBe(true);
    },
  );

  it('--export of a directory exits 2 and says to pass one run file', async () => {
    const res = await view(['--export', join(dir, 'x.html'), dir]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`"${dir}" is a directory; --export writes the page for one run`);
  });
});
