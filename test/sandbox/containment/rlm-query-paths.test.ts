/**
 * Class 1: the host trusts a path model code sends. Model code forges rlm_query
 * calls through the worker's own channel (right token, right sequence) naming
 * host files, a FIFO, a device and links planted in its exchange folder. The host
 * must open none of them: each call fails in the code with the reason, nothing
 * hangs, nothing of the host's leaks.
 */
import { describe, expect, it } from 'vitest';
import {
  CONTAINED,
  containment,
  hostileRun,
  isChildAsked,
  lastUserText,
  repl,
  serverForFile,
} from '../../support/hostile-run.js';

const FORGE = repl(
  [
    'import gc, os',
    'w = [o for o in gc.get_objects() if type(o).__name__ == "Worker"][0]',
    'ex = w.exchange_dir',
    'home = os.path.expanduser("~")',
    'os.mkfifo(os.path.join(ex, "q901.txt"))',
    'os.symlink("{{PRIVATE}}", os.path.join(ex, "q902.txt"))',
    'os.symlink("/proc/self/environ", os.path.join(ex, "q903.txt"))',
    'os.symlink("/dev/zero", os.path.join(ex, "q904.txt"))',
    'open(os.path.join(home, "own.txt"), "w").write("mine")',
    'os.link(os.path.join(home, "own.txt"), os.path.join(ex, "q905.txt"))',
    'os.mkdir(os.path.join(ex, "q906.txt"))',
    'names = ["/proc/self/environ", "{{PRIVATE}}", "/dev/zero", "/proc/{{HOST_PID}}/environ",',
    '         "../../../../../proc/self/environ", "q901.txt", "q902.txt", "q903.txt", "q904.txt",',
    '         "q905.txt", "q906.txt", "q907.txt"]',
    'for name in names:',
    '    try:',
    '        r = w.host_call("rlm_query", 1, {"question": "leak?", "exchange": name, "dataType": "str"})',
    '        print("ANSWERED", name, r[:80])',
    '    except Exception as e:',
    '        print("REFUSED", str(e)[:160])',
  ].join('\n'),
);

/** The forged names and the reason each must be refused with, in order. */
const EXPECTED = [
  /is not a file name of the exchange folder/,
  /is not a file name of the exchange folder/,
  /is not a file name of the exchange folder/,
  /is not a file name of the exchange folder/,
  /is not a file name of the exchange folder/,
  /q901\.txt is a FIFO, not a regular file/,
  /q902\.txt is a symbolic link/,
  /q903\.txt is a symbolic link/,
  /q904\.txt is a symbolic link/,
  /q905\.txt has 2 hard links/,
  /q906\.txt is a folder, not a regular file/,
  /q907\.txt cannot be opened \(ENOENT\)/,
];

// A frame of the old protocol: a path the host would have read as root.
const OLD_PROTOCOL = repl(
  [
    'import gc',
    'w = [o for o in gc.get_objects() if type(o).__name__ == "Worker"][0]',
    'keep = "doomed"',
    'try:',
    '    w.host_call("rlm_query", 1, {"question": "q", "contextPath": "{{PRIVATE}}", "contextType": "str"})',
    'except Exception as e:',
    '    print("REFUSED", e)',
  ].join('\n'),
);

const served = serverForFile();

describe.each([1, 2])('class 1, rlm_query paths (max depth %i)', (depth) => {
  it('refuses every path, FIFO, device and link model code names; nothing leaks or hangs', async () => {
    const outputs: string[] = [];
    const run = await hostileRun(served(), {
      name: `rlm-query-paths-${depth}`,
      flags: ['--max-depth', String(depth), '--max-iterations', '5'],
      settings: { exec_timeout: 20 },
      boundMs: 60_000,
      root: (n, request) => {
        if (isChildAsked(request, 'Question: count the parts')) {
          return lastUserText(request).includes('Output')
            ? 'FINAL(child done)'
            : repl('print("CHILD", type(context).__name__, sorted(context))');
        }
        if (n > 1) outputs.push(lastUserText(request));
        if (n === 1) return FORGE;
        if (n === 2) return OLD_PROTOCOL;
        if (n === 3) return repl('print(rlm_query("count the parts", {"a": "x", "b": "yy"}))');
        return undefined;
      },
      sub: (request) => `plain call saw ${lastUserText(request).length} chars`,
    });
    expect(containment(run, 60_000)).toEqual(CONTAINED);
    const forged = outputs[0] ?? '';
    const lines = forged.split('\n').filter((l) => /^(REFUSED|ANSWERED)/.test(l));
    expect(lines).toHaveLength(EXPECTED.length);
    lines.forEach((line, i) => {
      expect(line).toMatch(/^REFUSED rlm_query refused its data: /);
      expect(line).toMatch(EXPECTED[i] as RegExp);
    });
    // A frame naming a path is a protocol violation: the worker is replaced, the model told.
    expect(outputs[1]).toMatch(
      /the REPL was restarted \(protocol\): every variable you made is gone/,
    );
    // Data the REPL wrote itself still works: a dict reaches a child as a dict (depth 2),
    // or the plain call's prompt (depth 1).
    if (depth === 2) {
      const child = Object.values(run.trajectories).find(
        (e) => e[0]?.type === 'metadata' && e[0].depth === 1,
      );
      const childOut = JSON.stringify(child ?? []);
      expect(childOut).toContain("CHILD dict ['a', 'b']");
      expect(outputs[2]).toContain('child done');
    } else {
      expect(outputs[2]).toMatch(/plain call saw \d+ chars/);
    }
  });
});
