import { execFile, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publicCliMain } from '../support/other-user.js';
import { isRoot } from './helpers.js';

// The probe runs as uid 65534, which cannot reach a checkout in a private (0700) folder: it
// imports a copy of the built library in a folder it can reach (test/support/other-user.ts).
const dist = isRoot
  ? join(dirname(dirname(publicCliMain())), 'index.js')
  : join(process.cwd(), 'dist', 'index.js');
const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

/** Runs the built library as uid 65534 and reports the claims and what the code could do. */
function probe(port: number): string {
  const code = [
    'import os, socket',
    'try:',
    `    socket.create_connection(("127.0.0.1", ${port}), timeout=3).close()`,
    '    print("net=connected")',
    'except OSError as e:',
    '    print("net=failed")',
    'try:',
    `    os.kill(${process.pid}, 0)`,
    '    print("host=signalable")',
    'except OSError as e:',
    '    print("host=" + type(e).__name__)',
  ].join('\n');
  return `
const { createPythonSandbox } = await import(${JSON.stringify(dist)});
const sb = await createPythonSandbox({ context: { kind: 'text', text: 'abc' }, onHostCall: async () => 'x' });
const r = await sb.exec(${JSON.stringify(code)});
process.stderr.write(JSON.stringify({ caps: sb.capabilities, out: r.stdout }));
await sb.close();
`;
}

/** The probe runs the built library as uid 65534, so that user must be able to read it. */
function readableByNobody(): boolean {
  if (!setpriv || !existsSync(dist)) return false;
  try {
    execFileSync(
      setpriv,
      ['--reuid=65534', '--regid=65534', '--clear-groups', '/usr/bin/test', '-r', dist],
      {
        stdio: 'ignore',
      },
    );
    return true;
  } catch {
    return false;
  }
}

const runnable = isRoot && readableByNobody();
if (isRoot && !runnable) {
  process.stderr.write(
    `non-root sandbox test skipped: uid 65534 cannot read ${dist} (no setpriv, or a private temporary directory)\n`,
  );
}

describe.skipIf(!runnable)('Python sandbox as a normal user', () => {
  it('claims only the isolation that model code actually meets', async () => {
    const server = createServer((s) => s.destroy());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as { port: number }).port;
    try {
      const stderr = await new Promise<string>((resolve, reject) => {
        execFile(
          setpriv!,
          [
            '--reuid=65534',
            '--regid=65534',
            '--clear-groups',
            process.execPath,
            '--input-type=module',
            '-e',
            probe(port),
          ],
          { cwd: '/tmp', env: { PATH: '/usr/bin:/bin', HOME: '/tmp' }, timeout: 60_000 },
          (error, _stdout, err) =>
            error ? reject(new Error(`${error.message}\n${err}`)) : resolve(err),
        );
      });
      const { caps, out } = JSON.parse(stderr) as {
        caps: { uidDropped: boolean; networkIsolated: boolean; pidIsolated: boolean };
        out: string;
      };
      expect(caps.uidDropped).toBe(false);
      expect(out).toContain(caps.networkIsolated ? 'net=failed' : 'net=connected');
      expect(out).toContain(caps.pidIsolated ? 'host=ProcessLookupError' : 'host=signalable');
    } finally {
      server.close();
    }
  });
});
