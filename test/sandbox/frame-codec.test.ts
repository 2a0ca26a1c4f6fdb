import { describe, expect, it } from 'vitest';
import {
  FrameDecoder,
  FrameEncoder,
  ProtocolViolation,
} from '../../src/sandbox/python/frame-codec.js';

const frame = (obj: unknown) => {
  const body = Buffer.from(JSON.stringify(obj));
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  return Buffer.concat([head, body]);
};

describe('channel framing', () => {
  it('round-trips messages split at any byte boundary', () => {
    const enc = new FrameEncoder('tok');
    const dec = new FrameDecoder('tok', 1024);
    const bytes = Buffer.concat([
      enc.encode({ type: 'a', n: 1 }),
      enc.encode({ type: 'b', text: 'é' }),
    ]);
    const got = [];
    for (const byte of bytes) got.push(...dec.push(Buffer.from([byte])));
    expect(got).toEqual([
      { s: 1, k: 'tok', type: 'a', n: 1 },
      { s: 2, k: 'tok', type: 'b', text: 'é' },
    ]);
  });

  it.each([
    ['garbage bytes', Buffer.from('\x00\x00\x00\x09{garbage}')],
    ['a wrong token', frame({ s: 1, k: 'forged', type: 'result' })],
    ['a skipped sequence number', frame({ s: 2, k: 'tok', type: 'result' })],
    ['a missing type', frame({ s: 1, k: 'tok' })],
    ['a non-object payload', frame([1, 2])],
    ['an oversized length', Buffer.from([0x7f, 0xff, 0xff, 0xff])],
  ])('rejects %s', (_label, bytes) => {
    const dec = new FrameDecoder('tok', 1024);
    expect(() => dec.push(bytes)).toThrow(ProtocolViolation);
  });

  it('rejects a replayed frame', () => {
    const dec = new FrameDecoder('tok', 1024);
    const first = frame({ s: 1, k: 'tok', type: 'ready' });
    expect(dec.push(first)).toHaveLength(1);
    expect(() => dec.push(first)).toThrow(/sequence 1 where 2 was due/);
  });
});
