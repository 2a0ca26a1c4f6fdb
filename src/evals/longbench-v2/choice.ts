/**
 * Reading the choice letter out of a model's answer, strictly: a bare letter,
 * a letter opening the answer (`C.`, `(C)`), or "the answer is C". An answer
 * that names two letters as the answer, or none, has no choice and scores 0.
 */
import type { ChoiceLetter } from './item.js';

const BARE = /^[([]?([A-D])[)\].:]?$/;
const OPENING = /^[([]?([A-D])[)\].:]\s/;
// "answer is C", "Answer: (C)", "the answer would be option C", with any hedge right after it.
// Letters are upper case only: "the answer is a bit unclear" picks nothing.
const STATED =
  /\b(?:[Aa]nswer|ANSWER)\s*(?:is|would be|should be)?\s*[:：]?\s*(?:option|choice)?\s*[([]?([A-D])\b[)\]]?(\s*(?:or|and|\/|,)\s*(?:option|choice)?\s*[([]?[A-D]\b)?/g;
const HEDGE = /^[([]?[A-D][)\].:]?\s*(?:or|and|\/|,)\s*[([]?[A-D]\b/;

/** The letter the answer picks, or undefined when it picks none or is ambiguous. */
export function extractChoice(answer: string): ChoiceLetter | undefined {
  const text = answer.replace(/[*_`"'“”]/g, '').trim();
  // A lone lower-case letter is still a letter; in longer text "a" is a word.
  const bare = BARE.exec(text.length === 1 ? text.toUpperCase() : text);
  if (bare) return bare[1] as ChoiceLetter;
  const stated = [...text.matchAll(STATED)];
  const letters = new Set(stated.map((m) => (m[1] ?? '').toUpperCase()));
  if (stated.some((m) => m[2] !== undefined) || letters.size > 1) return undefined;
  if (letters.size === 1) return [...letters][0] as ChoiceLetter;
  if (HEDGE.test(text)) return undefined;
  return OPENING.exec(text)?.[1] as ChoiceLetter | undefined;
}
