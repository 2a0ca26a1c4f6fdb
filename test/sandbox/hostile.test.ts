import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPythonSandbox, type PythonSandbox } from '../../src/index.js';
import { isRoot, recordingHost } from './helpers.js';

// Each program here attacks the host or the machine. They run one at a time, and each
// must leave the host alive and the next execution working.
describe.sequential('Python sandbox: hostile programs', () => {
  const sentinel = `sentinel-${process.pid}-${Date.now()}`;
  let sb: PythonSandbox;

  beforeAll(async () => {
    process.env.RECLAMO_TEST_API_KEY = sentinel;
    process.env.OPENAI_API_KEY = sentinel;
    sb = await createPythonSandbox({
      context: { kind: 'text', text: 'the context' },
      onHostCall: recordingHost().handler,
      execTimeoutMs: 20_000,
      interruptGraceMs: 300,
      memoryLimitBytes: 768 * 1024 * 1024,
      processLimit: 24,
    });
  });
  afterAll(async () => {
    delete process.env.RECLAMO_TEST_API_KEY;
    delete process.env.OPENAI_API_KEY;
    await sb.close();
  });

  /** The next execution works and the REPL still holds the context. */
  async function stillWorks() {
    const r = await sb.exec('print(len(context))');
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe('11\n');
  }

  it('applies the uid drop and network isolation when the host is root', async () => {
    const r = await sb.exec('import os\nprint(os.getuid(), os.geteuid(), os.getgroups())');
    const [uid, euid] = r.stdout.trim().split(' ').map(Number);
    if (isRoot) {
      expect(sb.capabilities.uidDropped).toBe(true);
      expect(sb.capabilities.networkIsolated).toBe(true);
      expect(uid).toBe(sb.capabilities.uid);
      expect(uid).toBeGreaterThanOrEqual(200_000);
      expect(euid).toBe(uid);
      expect(r.stdout.trim().endsWith('[]')).toBe(true);
    } else {
      // Never claims what is not in force.
      expect(sb.capabilities.uidDropped).toBe(false);
    }
    expect(sb.capabilities.memoryLimitBytes).toBe(768 * 1024 * 1024);
  });

  it('keeps the host environment out of reach', async () => {
    const r = await sb.exec(
      [
        'import os, glob',
        `needle = ${JSON.stringify(sentinel)}`,
        'found = [k for k, v in os.environ.items() if needle in v]',
        `paths = ["/proc/self/environ", "/proc/${process.pid}/environ", "/proc/${process.ppid}/environ"] + glob.glob("/proc/*/environ")`,
        'for p in paths:',
        '    try:',
        '        with open(p, "rb") as f:',
        '            if needle.encode() in f.read():',
        '                found.append(p)',
        '    except OSError:',
        '        pass',
        'print("FOUND" if found else "NOT FOUND", found)',
        'print(sorted(os.environ))',
      ].join('\n'),
    );
    expect(r.stdout.split('\n')[0]).toBe('NOT FOUND []');
    const names = r.stdout.split('\n')[1] ?? '';
    expect(names).not.toMatch(/KEY|TOKEN|SECRET|RECLAMO|OPENAI/);
    expect(names).toContain("'HOME'");
    await stillWorks();
  });

  it('survives garbage written to every file descriptor', async () => {
    const r = await sb.exec(
      'import os\nfor fd in range(256):\n    try:\n        os.write(fd, b"\\x00\\x00\\x00\\x09{garbage}")\n    except OSError:\n        pass\nprint("wrote")',
    );
    expect(r.restarted?.reason).toBe('protocol');
    expect(r.restarted?.detail).toMatch(/variable/);
    await stillWorks();
  });

  it('detects a forged protocol message sent through the worker itself', async () => {
    await sb.exec('keep = 1');
    const r = await sb.exec(
      'import gc\nch = [o for o in gc.get_objects() if type(o).__name__ == "Channel"][0]\nch.send({"type": "result", "rid": 987654})\nprint("forged")',
    );
    expect(r.restarted?.reason).toBe('protocol');
    const raw = await sb.exec(
      'import os, json\nbody = json.dumps({"s": 1, "k": "guess", "type": "result"}).encode()\nos.write(3, len(body).to_bytes(4, "big") + body)',
    );
    expect(raw.restarted?.reason).toBe('protocol');
    const gone = await sb.exec('print(keep)');
    expect(gone.error?.type).toBe('NameError');
    await stillWorks();
  });

  it('bounds a 200 MB print without holding it in the host', async () => {
    const r = await sb.exec(
      'print("y" * 200_000_000)\nimport os\nchunk = b"z" * (1 << 20)\nfor _ in range(20):\n    os.write(1, chunk)',
    );
    expect(r.error).toBeUndefined();
    expect(r.stdoutChars).toBe(200_000_001);
    expect(r.stdout.length).toBe(1_000_000);
    expect(r.stdoutOverflow).toBe(true);
    expect(r.stderrChars).toBe(20 * 1024 * 1024);
    expect(r.stderr.length).toBe(1_000_000);
    expect(r.stderrOverflow).toBe(true);
    await stillWorks();
  });

  it('turns an allocation past the memory limit into a MemoryError', async () => {
    const r = await sb.exec('big = bytearray(2 * 1024**3)');
    expect(r.error?.type).toBe('MemoryError');
    expect(r.restarted).toBeUndefined();
    await stillWorks();
  });

  it('interrupts on timeout and keeps the variables', async () => {
    await sb.exec('survivor = "still here"');
    const r = await sb.exec('import time\ntime.sleep(30)', { timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(r.error?.type).toBe('KeyboardInterrupt');
    expect(r.restarted).toBeUndefined();
    expect(r.elapsedMs).toBeLessThan(5_000);
    expect((await sb.exec('print(survivor)')).stdout).toBe('still here\n');
  });

  it('kills and relaunches a loop that swallows KeyboardInterrupt; variables are gone', async () => {
    await sb.exec('survivor = "doomed"');
    const r = await sb.exec(
      'while True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass',
      { timeoutMs: 300 },
    );
    expect(r.timedOut).toBe(true);
    expect(r.restarted?.reason).toBe('timeout');
    expect(r.restarted?.detail).toMatch(/variable/);
    expect(r.elapsedMs).toBeLessThan(10_000);
    const after = await sb.exec('print(survivor)');
    expect(after.error?.type).toBe('NameError');
    await stillWorks();
  });

  it('recovers from crashes: os._exit and a segfault', async () => {
    const exit = await sb.exec('import os\nos._exit(7)');
    expect(exit.restarted?.reason).toBe('crash');
    expect(exit.restarted?.detail).toMatch(/exit code 7/);
    await stillWorks();
    const segv = await sb.exec('import ctypes\nctypes.string_at(0)');
    expect(segv.restarted?.reason).toBe('crash');
    expect(segv.restarted?.detail).toMatch(/SIGSEGV|Segmentation/);
    await stillWorks();
  });

  it('bounds a fork loop by the process limit and cleans it up on timeout', async () => {
    const bounded = await sb.exec(
      [
        'import os, time',
        'kids = []',
        'try:',
        '    while len(kids) < 500:',
        '        pid = os.fork()',
        '        if pid == 0:',
        '            time.sleep(60)',
        '            os._exit(0)',
        '        kids.append(pid)',
        'except OSError as e:',
        '    print("stopped", len(kids), type(e).__name__)',
      ].join('\n'),
      { timeoutMs: 10_000 },
    );
    if (isRoot) expect(bounded.stdout).toMatch(/^stopped \d+ BlockingIOError/);
    const count = Number(/stopped (\d+)/.exec(bounded.stdout)?.[1] ?? '999');
    expect(count).toBeLessThan(24);
    const bomb = await sb.exec(
      'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass',
      {
        timeoutMs: 500,
      },
    );
    expect(bomb.timedOut).toBe(true);
    const left = await sb.exec(
      'import os\nprint(len([p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]))',
    );
    if (sb.capabilities.pidIsolated) expect(left.stdout).toBe('0\n');
    await stillWorks();
  });

  it('cannot reach a listener on 127.0.0.1', async () => {
    const server = createServer((s) => s.destroy());
    let connections = 0;
    server.on('connection', () => connections++);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as { port: number }).port;
    try {
      const r = await sb.exec(
        `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=3).close()\n    print("CONNECTED")\nexcept OSError as e:\n    print("FAILED", type(e).__name__)`,
      );
      if (isRoot) {
        expect(r.stdout).toMatch(/^FAILED/);
        expect(connections).toBe(0);
      }
    } finally {
      server.close();
    }
    await stillWorks();
  });

  it('cannot signal the host process', async () => {
    const r = await sb.exec(
      `import os, signal\ntry:\n    os.kill(${process.pid}, signal.SIGKILL)\n    print("SENT")\nexcept OSError as e:\n    print("FAILED", type(e).__name__)`,
    );
    expect(r.stdout).toMatch(/^FAILED (ProcessLookupError|PermissionError)/);
    await stillWorks();
  });
});
