/**
 * Deterministic text that exercises a tokenizer's edge cases: words and
 * contractions in any case, digits, punctuation runs, whitespace runs and
 * line ends, accents in both composed and decomposed form, CJK, emoji, code,
 * and special-token text.
 */
const FRAGMENTS = [
  'record',
  ' value',
  'Status',
  ' OK',
  "don't",
  " I'LL",
  " they're",
  '12345678',
  ' 42',
  '3.14159',
  '-0.5e-3',
  ', ',
  '...',
  '!?',
  ' -- ',
  '/usr/local/bin',
  '.\n/tmp',
  '\n',
  '\n\n',
  '\r\n',
  '   ',
  '\t',
  '  \n  ',
  'café',
  'cafe\u0301',
  'Ångström',
  '東京タワー',
  '中文字符',
  '😀👍🏽',
  'naïve',
  '\u00a0',
  'def f(x):\n    return x + 1\n',
  '{"id": 7, "ok": true}',
  '<|endoftext|>',
  '<think>',
  '</think>',
  '<|im_end|>',
  '<tool_call>',
  'ALLCAPS',
  'camelCaseWord',
  '___',
  '#!',
  '\u200b',
];

/** `chars` characters or a little more of mixed text, the same for the same seed. */
export function mixedText(seed: number, chars: number): string {
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state;
  };
  let text = '';
  while (text.length < chars) text += FRAGMENTS[next() % FRAGMENTS.length];
  return text;
}
