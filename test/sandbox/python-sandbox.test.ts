import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPythonSandbox, type PythonSandbox } from '../../src/index.js';
import { artifactDir, recordingHost } from './helpers.js';

describe('Python sandbox: REPL behaviour', () => {
  const host = recordingHost(async (call) => {
    if (call.kind === 'llm_query_batched') {
      return call.prompts.map((p) =>
        p === 'bad' ? 'Error: the model failed on this item' : `A(${p})`,
      );
    }
    if (call.kind === 'llm_query') {
      if (call.prompt === 'explode') throw new Error('upstream said no');
      await new Promise((r) => setTimeout(r, 5));
      return `A(${call.prompt})${call.model ? `@${call.model}` : ''}`;
    }
    const context = await call.data.context();
    const text = context.kind === 'file' ? readFileSync(context.path, 'utf8') : '';
    return `child saw ${call.data.type} ${call.data.bytes} ${(context.kind === 'file' && context.format) || 'text'}: ${text}`;
  });
  let sb: PythonSandbox;

  beforeAll(async () => {
    sb = await createPythonSandbox({
      context: { kind: 'text', text: 'alpha\nbeta\ngamma needle\ndelta\n' },
      onHostCall: host.handler,
      maxHostCallsPerExec: 50,
    });
  });
  afterAll(() => sb.close());

  it('loads text as a str context and reports its shape', async () => {
    expect(sb.contextShape).toEqual({ type: 'str', totalChars: 30, partLengths: [30] });
    const r = await sb.exec('print(type(context).__name__, len(context))');
    expect(r.stdout).toBe('str 30\n');
  });

  it('keeps variables, functions and imports across executions', async () => {
    const a = await sb.exec('import math\ndef sq(v):\n    return v * v\ncounter = 41');
    expect(a.error).toBeUndefined();
    expect(a.changedNames.sort()).toEqual(['counter', 'math', 'sq']);
    const b = await sb.exec('counter += 1\nprint(sq(counter), math.floor(2.5))');
    expect(b.stdout).toBe('1764 2\n');
    expect(b.changedNames).toEqual(['counter']);
  });

  it('restores reserved names the code overwrote and says so', async () => {
    const r = await sb.exec('context = None\nllm_query = 3\ndel grep\nanswer = "x"');
    expect(r.restoredNames.sort()).toEqual(['answer', 'context', 'grep', 'llm_query']);
    const after = await sb.exec(
      'print(type(context).__name__, callable(llm_query), callable(grep), type(answer).__name__)',
    );
    expect(after.stdout).toBe('str True True dict\n');
  });

  it('reports exceptions with the line in the model code', async () => {
    const r = await sb.exec('x = 1\ny = 2\nraise ValueError("boom")');
    expect(r.error).toMatchObject({ type: 'ValueError', message: 'boom', line: 3 });
    expect(r.error?.traceback).toContain('raise ValueError("boom")');
    const s = await sb.exec('def broken(:\n  pass');
    expect(s.error).toMatchObject({ type: 'SyntaxError', line: 1 });
  });

  it('answers llm_query, with the model name, and raises host errors in Python', async () => {
    const r = await sb.exec(
      'print(llm_query("q1"))\nprint(llm_query("q2", model="small"))\ntry:\n    llm_query("explode")\nexcept Exception as e:\n    print(type(e).__name__, e)',
    );
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe('A(q1)\nA(q2)@small\nHostCallError upstream said no\n');
    expect(r.hostCalls).toBe(3);
    expect(host.calls).toContainEqual({ kind: 'llm_query', prompt: 'q2', model: 'small' });
  });

  it('routes calls from many threads by request id', async () => {
    const r = await sb.exec(
      'from concurrent.futures import ThreadPoolExecutor\nitems = [f"t{i}" for i in range(24)]\nout = list(ThreadPoolExecutor(8).map(llm_query, items))\nprint(out == [f"A({p})" for p in items])',
    );
    expect(r.stdout).toBe('True\n');
    expect(r.hostCalls).toBe(24);
  });

  it('keeps llm_query_batched in order with a failed item as an error string in its slot', async () => {
    const r = await sb.exec('res = llm_query_batched(["a", "bad", "c"])\nprint(res)');
    expect(r.stdout).toBe("['A(a)', 'Error: the model failed on this item', 'A(c)']\n");
    expect(r.hostCalls).toBe(3);
    expect(host.calls).toContainEqual({ kind: 'llm_query_batched', prompts: ['a', 'bad', 'c'] });
  });

  it('runs parallel() callables concurrently with results in order', async () => {
    const r = await sb.exec(
      'import time\nt = time.monotonic()\nres = parallel([lambda i=i: llm_query(f"p{i}") for i in range(8)])\nprint(res[0], res[7], time.monotonic() - t < 0.04 * 8)',
    );
    expect(r.stdout).toBe('A(p0) A(p7) True\n');
  });

  it('hands rlm_query data to the host as a checked file: text, a dict as JSON, else JSON text', async () => {
    const r = await sb.exec(
      'print(rlm_query("q-str", "some text"))\nprint(rlm_query("q-dict", {"a.txt": "A", "sub/b.txt": "B"}))\nprint(rlm_query("q-list", [1, 2]))\nimport os\nprint(sorted(os.listdir(os.path.join(os.path.dirname(os.getcwd()), "exchange"))))',
    );
    expect(r.error).toBeUndefined();
    expect(r.stdout.split('\n')).toEqual([
      'child saw str 9 text: some text',
      'child saw dict 32 json: {"a.txt": "A", "sub/b.txt": "B"}',
      'child saw str 6 text: [1, 2]',
      // Each file is gone once its call has been answered.
      '[]',
      '',
    ]);
  });

  it('refuses a prompt too large for the channel without breaking the worker', async () => {
    const r = await sb.exec(
      'try:\n    llm_query("x" * 70_000_000)\nexcept Exception as e:\n    print(type(e).__name__, str(e)[:40])',
    );
    expect(r.stdout).toBe('HostCallError llm_query: too large to send to the host\n');
    expect(r.restarted).toBeUndefined();
    expect(r.hostCalls).toBe(0);
  });

  it('enforces the per-execution cap in the worker', async () => {
    const r = await sb.exec(
      'n = 0\ntry:\n    for i in range(10):\n        llm_query("x")\n        n += 1\nexcept Exception as e:\n    print(n, type(e).__name__, e)',
      { maxHostCalls: 4 },
    );
    expect(r.stdout).toMatch(/^4 HostCallLimitError .*cap of 4 host calls/);
    expect(r.hostCalls).toBe(4);
    const batched = await sb.exec('llm_query_batched(["a"] * 5)', { maxHostCalls: 4 });
    expect(batched.error?.type).toBe('HostCallLimitError');
  });

  it('gives grep line numbers and context without splitting the text', async () => {
    const r = await sb.exec('print(grep(context, "needle", context=1))');
    expect(r.stdout).toBe('2- beta\n3: gamma needle\n4- delta\n');
    const many = await sb.exec(
      'big = "\\n".join(f"line {i}" + (" hit" if i % 1000 == 0 else "") for i in range(100000))\nout = grep(big, r"hit$", context=0).splitlines()\nprint(out[:3], len([l for l in out if l != "--"]))',
    );
    expect(many.stdout).toBe("['1: line 0 hit', '--', '1001: line 1000 hit'] 100\n");
    const none = await sb.exec(
      'print(repr(grep(context, "zzz")))\nprint(grep(context, "(unclosed"))',
    );
    expect(none.stdout).toBe("''\n\n");
  });

  it('keeps NOTE/RECALL notes and lists variables with SHOW_VARS', async () => {
    const r = await sb.exec('NOTE("plan", "step 1")\nprint(RECALL("plan"))\nSHOW_VARS()');
    expect(r.stdout).toMatch(/^step 1\n/);
    expect(r.stdout).toMatch(/counter\s+int\s+2\n/);
    const vars = await sb.listVariables();
    expect(vars).toContainEqual({ name: 'counter', type: 'int', size: 2 });
    expect(vars.map((v) => v.name)).not.toContain('llm_query');
  });

  it('reads, sets and bounds variables and the answer dict', async () => {
    await sb.setVariable('history', [{ code: 'x', output: 'y' }]);
    const r = await sb.exec('print(history[0]["output"])');
    expect(r.stdout).toBe('y\n');
    await sb.exec('long = "z" * 5000');
    expect(await sb.getVariable('long', 10)).toEqual({
      exists: true,
      type: 'str',
      text: 'zzzzzzzzzz',
      chars: 5000,
    });
    expect(await sb.getVariable('missing')).toEqual({ exists: false });
    await expect(sb.setVariable('context', 1)).rejects.toThrow(/reserved/);
    await expect(sb.setVariable('not a name', 1)).rejects.toThrow(/identifier/);
    expect(await sb.readAnswer()).toEqual({ ready: false, content: '', chars: 0 });
    await sb.exec('answer["content"] = "forty-two"\nanswer["ready"] = True');
    expect(await sb.readAnswer()).toEqual({ ready: true, content: 'forty-two', chars: 9 });
    await sb.exec('answer = {"content": "replaced", "ready": True}');
    expect(await sb.readAnswer()).toEqual({ ready: true, content: 'replaced', chars: 8 });
  });

  it('caps captured output but counts all of it', async () => {
    const r = await sb.exec('print("x" * 1_500_000)\nimport sys\nsys.stderr.write("e" * 10)');
    expect(r.stdout.length).toBe(1_000_000);
    expect(r.stdoutChars).toBe(1_500_001);
    expect(r.stdoutOverflow).toBe(true);
    expect(r.stderr).toBe('eeeeeeeeee');
    expect(r.stderrOverflow).toBe(false);
  });

  it('includes raw fd output of the code and its subprocesses in stderr', async () => {
    const r = await sb.exec('import os\nos.write(1, b"raw-1\\n")\nos.system("echo from-shell")');
    expect(r.stderr).toContain('raw-1\n');
    expect(r.stderr).toContain('from-shell\n');
  });
});

describe('Python sandbox: context loading', () => {
  it('loads a directory as a dict, skipping hidden and non-UTF-8 files', async () => {
    const dir = artifactDir('dir-context');
    mkdirSync(join(dir, 'docs', 'deep'), { recursive: true });
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, 'a.txt'), 'first');
    writeFileSync(join(dir, 'docs', 'deep', 'b.md'), 'second file');
    writeFileSync(join(dir, '.hidden'), 'secret');
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref');
    writeFileSync(join(dir, 'blob.bin'), Buffer.from([0xff, 0xfe, 0x00, 0x80]));
    const sb = await createPythonSandbox({
      context: { kind: 'directory', path: dir },
      onHostCall: recordingHost().handler,
    });
    try {
      expect(sb.contextShape).toEqual({
        type: 'dict',
        totalChars: 16,
        partLengths: [5, 11],
        skipped: { hidden: 2, notUtf8: 1, unreadable: 0 },
      });
      const r = await sb.exec('print(sorted(context))');
      expect(r.stdout).toBe("['a.txt', 'docs/deep/b.md']\n");
    } finally {
      await sb.close();
    }
  });

  it('loads a file by path and starts with no context', async () => {
    const dir = artifactDir('file-context');
    writeFileSync(join(dir, 'c.txt'), 'héllo wörld');
    const sb = await createPythonSandbox({
      context: { kind: 'file', path: join(dir, 'c.txt') },
      onHostCall: recordingHost().handler,
    });
    const r = await sb.exec('print(context.upper())');
    expect(r.stdout).toBe('HÉLLO WÖRLD\n');
    await sb.close();
    const none = await createPythonSandbox({
      context: { kind: 'none' },
      onHostCall: recordingHost().handler,
    });
    expect(none.contextShape).toEqual({ type: 'NoneType', totalChars: 0, partLengths: [] });
    await none.close();
  });

  it('refuses a missing context path with a clear error', async () => {
    await expect(
      createPythonSandbox({
        context: { kind: 'file', path: '/nonexistent/ctx.txt' },
        onHostCall: recordingHost().handler,
      }),
    ).rejects.toThrow(/does not exist/);
  });

  it('removes its scratch directory on close', async () => {
    const parent = artifactDir('scratch');
    const sb = await createPythonSandbox({
      context: { kind: 'text', text: 'x' },
      onHostCall: recordingHost().handler,
      scratchParent: parent,
    });
    expect(readdirSync(parent)).toHaveLength(1);
    await sb.close();
    expect(readdirSync(parent)).toHaveLength(0);
  });
});

describe('Python sandbox: per-run cap', () => {
  it('refuses host calls past the per-run cap across executions', async () => {
    const host = recordingHost();
    const sb = await createPythonSandbox({
      context: { kind: 'none' },
      onHostCall: host.handler,
      maxHostCallsPerRun: 3,
    });
    try {
      const a = await sb.exec('llm_query("1"); llm_query("2")');
      expect(a.hostCalls).toBe(2);
      const b = await sb.exec(
        'llm_query("3")\ntry:\n    llm_query("4")\nexcept Exception as e:\n    print(e)',
      );
      expect(b.stdout).toMatch(/run reached its cap of 3 host calls/);
      expect(host.calls).toHaveLength(3);
    } finally {
      await sb.close();
    }
  });
});
