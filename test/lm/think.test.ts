import { describe, expect, it } from 'vitest';
import { splitThink } from '../../src/lm/think.js';

describe('splitThink', () => {
  it('leaves text without tags alone', () => {
    expect(splitThink('plain answer')).toEqual({ content: 'plain answer', reasoning: '' });
  });
  it('takes out one or more think blocks', () => {
    expect(splitThink('<think>a</think>\n\nanswer <think> b </think>end')).toEqual({
      content: 'answer end',
      reasoning: 'a\n\nb',
    });
  });
  it('treats text before a lone closing tag as reasoning (opening tag was in the prompt)', () => {
    expect(splitThink('weighing options</think>FINAL(1)')).toEqual({
      content: 'FINAL(1)',
      reasoning: 'weighing options',
    });
  });
  it('keeps an unclosed block (cut by the length limit) as reasoning', () => {
    expect(splitThink('<think>still going')).toEqual({ content: '', reasoning: 'still going' });
  });
});
