import { describe, expect, it } from 'vitest';
import { LONG_PIECE, PIECE_SLICE, pieceCounter } from '../../../src/lm/tokens/pieces.js';

describe('pieceCounter', () => {
  it('sums the pieces, text between matches included, and counts each distinct piece once', () => {
    const seen: string[] = [];
    const count = pieceCounter(/[a-z]+/g, (piece) => {
      seen.push(piece);
      return piece.length;
    });
    expect(count('ab, cd, ab!')).toBe(11);
    expect(seen).toEqual(['ab', ', ', 'cd', '!']);
    expect(count('cd ab')).toBe(5);
    expect(seen).toEqual(['ab', ', ', 'cd', '!', ' ']);
    expect(count('')).toBe(0);
  });

  it('counts a piece longer than LONG_PIECE in PIECE_SLICE slices, never splitting a surrogate pair', () => {
    const seen: string[] = [];
    const count = pieceCounter(/\S+/g, (piece) => {
      seen.push(piece);
      return 1;
    });
    expect(count('x'.repeat(LONG_PIECE))).toBe(1);
    expect(count('y'.repeat(LONG_PIECE + 1))).toBe(3);
    // The two full slices are the same text: counted once.
    expect(seen.slice(1).map((s) => s.length)).toEqual([PIECE_SLICE, 1]);
    expect(count('y'.repeat(10 * PIECE_SLICE))).toBe(10);
    expect(seen.length).toBe(3);
    // An emoji across a slice boundary stays whole.
    const emoji = `${'z'.repeat(PIECE_SLICE - 1)}😀${'z'.repeat(PIECE_SLICE)}`;
    count(emoji);
    expect(seen.at(-2)).toBe(`${'z'.repeat(PIECE_SLICE - 1)}😀`);
    expect(seen.join('')).toContain('😀');
  });

  it('forgets everything once it holds maxPieces pieces, and still counts right', () => {
    let calls = 0;
    const count = pieceCounter(
      /\S+/g,
      () => {
        calls++;
        return 1;
      },
      3,
    );
    expect(count('a b a')).toBe(5);
    expect(calls).toBe(3); // a, ' ', b; then ' ' and a are remembered
    expect(count('c a')).toBe(3);
    expect(calls).toBe(6); // c finds the memo full and clears it: ' ' and a are counted again
  });

  it('needs a global pattern', () => {
    expect(() => pieceCounter(/x/, () => 1)).toThrow(/g flag/);
  });
});
