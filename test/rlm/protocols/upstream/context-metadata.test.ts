import { describe, expect, it } from 'vitest';
import { upstreamContextMetadata } from '../../../../src/rlm/protocols/upstream/context-metadata.js';

describe('upstreamContextMetadata', () => {
  it('writes the exact upstream sentence with a Python list of lengths', () => {
    expect(upstreamContextMetadata({ type: 'str', totalChars: 1234, partLengths: [1234] })).toBe(
      'Your context is a str with 1234 total characters, and is broken up into chunks of char lengths: [1234].',
    );
    expect(
      upstreamContextMetadata({ type: 'dict', totalChars: 30, partLengths: [10, 15, 5] }),
    ).toBe(
      'Your context is a dict with 30 total characters, and is broken up into chunks of char lengths: [10, 15, 5].',
    );
  });

  it('lists at most 100 lengths and counts the others', () => {
    const lengths = Array.from({ length: 103 }, () => 7);
    const text = upstreamContextMetadata({ type: 'dict', totalChars: 721, partLengths: lengths });
    expect(text).toBe(
      `Your context is a dict with 721 total characters, and is broken up into chunks of char lengths: [${Array(100).fill('7').join(', ')}]... [3 others].`,
    );
  });
});
