import { describe, expect, it } from 'vitest';
import { decideNoToolCall, detectSlip } from '../../src/rlm/tools-slip.js';

describe('detectSlip', () => {
  it('finds fenced code, text-form tool calls and line-start FINAL', () => {
    expect(detectSlip('Let me look.\n```python\nprint(1)\n```')).toBe('code');
    expect(detectSlip('```repl\nx = 1\n```')).toBe('code');
    expect(detectSlip('```\nprint(2)\n```')).toBe('code');
    expect(detectSlip('<tool_call>execute_python\nprint(1)</tool_call>')).toBe('code');
    expect(detectSlip('Done.\nFINAL(42)')).toBe('final');
    expect(detectSlip('  FINAL_VAR(result)')).toBe('final');
    expect(detectSlip('```python\nx=1\n```\nFINAL(1)')).toBe('code');
  });

  it('ignores prose, other fences and FINAL that is not at a line start', () => {
    expect(detectSlip('I will call the tool next.')).toBeNull();
    expect(detectSlip('```json\n{"a": 1}\n```')).toBeNull();
    expect(detectSlip('When done I will write FINAL(x).')).toBeNull();
  });
});

describe('decideNoToolCall', () => {
  it('honours the first slip of a run and only nudges later ones', () => {
    const first = decideNoToolCall('```python\nprint(1)\n```', 0);
    expect(first).toMatchObject({ kind: 'honour', slip: 'code' });
    expect(first.note).toMatch(/this once/);
    const second = decideNoToolCall('FINAL(3)', 1);
    expect(second).toMatchObject({ kind: 'nudge', slip: 'final' });
    expect(second.note).toMatch(/nothing ran/);
  });

  it('nudges a reply with no action at all, without calling it a slip', () => {
    const d = decideNoToolCall('Thinking about it.', 0);
    expect(d).toMatchObject({ kind: 'nudge', slip: null });
    expect(d.note).toMatch(/no tool call/);
  });
});
