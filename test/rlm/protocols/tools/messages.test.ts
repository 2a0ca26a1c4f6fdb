import { describe, expect, it } from 'vitest';
import {
  closingUserText,
  normalizeToolCallIds,
} from '../../../../src/rlm/protocols/tools/messages.js';

describe('closingUserText', () => {
  it('joins the non-empty notes and ends with the turn line', () => {
    expect(closingUserText(['Note A', ' ', 'Note B'], 'Turn 2/30.')).toBe(
      'Note A\n\nNote B\n\nTurn 2/30.',
    );
    expect(closingUserText([], 'Turn 3/30.')).toBe('Turn 3/30.');
  });
});

describe('normalizeToolCallIds', () => {
  it('fills empty and repeated ids and leaves good ones alone', () => {
    const out = normalizeToolCallIds(
      [
        { id: '', name: 'a', arguments: '' },
        { id: 'x', name: 'b', arguments: '' },
        { id: 'x', name: 'c', arguments: '' },
      ],
      4,
    );
    expect(out.map((c) => c.id)).toEqual(['call_4_0', 'x', 'call_4_2']);
  });
});
