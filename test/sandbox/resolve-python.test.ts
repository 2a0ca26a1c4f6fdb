import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPythonSandbox, InterpreterError, SandboxError } from '../../src/index.js';
import { probePython } from '../../src/sandbox/python/resolve-python.js';
import { artifactDir, recordingHost } from './helpers.js';

describe('resolving the interpreter', () => {
  it('resolves python3 past shims to an absolute interpreter path', async () => {
    const info = await probePython('python3');
    expect(info.executable.startsWith('/')).toBe(true);
    expect(info.executable).not.toMatch(/shims/);
    expect(info.major).toBe(3);
  });

  it('says how to fix a missing Python, as an InterpreterError naming what it tried', async () => {
    const error = await createPythonSandbox({
      context: { kind: 'none' },
      onHostCall: recordingHost().handler,
      python: '/nonexistent/python3',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterpreterError);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ name: 'InterpreterError', python: '/nonexistent/python3' });
    expect((error as Error).message).toMatch(
      /^Python was not found: `\/nonexistent\/python3` does not exist\. Fix: install Python 3\.9 or later as python3 on PATH, or set `python` .* in the profile, --python/,
    );
  });

  it('refuses a Python older than 3.9 and says how to fix it', async () => {
    const dir = artifactDir('old-python');
    const fake = join(dir, 'python3.8');
    writeFileSync(
      fake,
      `#!/bin/sh\necho '{"executable": "${fake}", "version": [3, 8, 10], "stdlib": ["/usr/lib"]}'\n`,
    );
    chmodSync(fake, 0o755);
    await expect(
      createPythonSandbox({
        context: { kind: 'none' },
        onHostCall: recordingHost().handler,
        python: fake,
      }),
    ).rejects.toThrow(
      /Python 3\.8\.10 .* is too old: reclamo needs Python 3\.9 or later\. Fix: install Python 3\.9/,
    );
  });
});
