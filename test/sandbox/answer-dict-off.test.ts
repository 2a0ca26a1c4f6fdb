import { describe, expect, it } from 'vitest';
import { createPythonSandbox } from '../../src/index.js';
import { recordingHost } from './helpers.js';

describe('Python sandbox with the answer dict switched off (upstream layout)', () => {
  it('leaves `answer` an ordinary name and reports its text, never ready', async () => {
    const sb = await createPythonSandbox({
      context: { kind: 'text', text: 'abc' },
      onHostCall: recordingHost().handler,
      answerDict: false,
    });
    try {
      const before = await sb.exec("print('answer' in globals())");
      expect(before.stdout).toBe('False\n');
      expect(await sb.readAnswer()).toEqual({ ready: false, content: '', chars: 0 });
      const r = await sb.exec("answer = 'tangerine-' + str(6 * 7)\nprint(type(answer).__name__)");
      expect(r.stdout).toBe('str\n');
      expect(r.restoredNames).toEqual([]);
      expect((await sb.getVariable('answer')).text).toBe('tangerine-42');
      expect(await sb.readAnswer()).toEqual({ ready: false, content: 'tangerine-42', chars: 12 });
      const names = (await sb.listVariables()).map((v) => v.name);
      expect(names).toContain('answer');
    } finally {
      await sb.close();
    }
  });
});
