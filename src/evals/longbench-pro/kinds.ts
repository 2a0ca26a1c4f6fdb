/**
 * Whether an item is multiple choice: `mc` when its answer is one option
 * letter that the question lists, `mc-multi` when the model may pick several
 * letters (any non-empty subset), else `open`. `chance` is the exact-match
 * rate of a uniform guess over what the model may answer.
 */

export type ItemKind = 'mc' | 'mc-multi' | 'open';

// An option line: `A. ...`, `A) ...`, `(A) ...`, `[A] ...`, `A: ...`, `A、...`.
const OPTION_LINE = /^\s*[([]?([A-Z])(?:[)\]]|[.:：、．])\s*\S/u;
const MULTI_WORDING =
  /one or more|all (?:that|which) apply|select all|multiple (?:correct )?(?:answers|options|choices)|more than one|多选|一个或多个|一项或多项|不定项/iu;

/** The option letters a question lists, in order: at least two, consecutive from A. */
export function optionLetters(question: string): string[] {
  const seen: string[] = [];
  for (const line of question.split('\n')) {
    const letter = OPTION_LINE.exec(line)?.[1];
    if (letter && !seen.includes(letter)) seen.push(letter);
  }
  const sorted = [...seen].sort();
  const consecutive = sorted.every((l, i) => l.charCodeAt(0) === 65 + i);
  return sorted.length >= 2 && consecutive ? sorted : [];
}

/** The letters an answer key gives, or undefined when it is not letters alone. */
function keyLetters(answer: readonly string[]): string[] | undefined {
  const letters: string[] = [];
  for (const part of answer) {
    for (const token of part.split(/[\s,，、;；]+/u).filter(Boolean)) {
      if (!/^[A-Za-z]$/.test(token)) return undefined;
      letters.push(token.toUpperCase());
    }
  }
  return letters.length > 0 ? [...new Set(letters)] : undefined;
}

/** The item's kind and the chance that a uniform guess is exactly right. */
export function classifyItem(
  question: string,
  answer: readonly string[],
): { kind: ItemKind; chance: number; options: number } {
  const options = optionLetters(question);
  const keys = keyLetters(answer);
  if (options.length === 0 || !keys || !keys.every((k) => options.includes(k))) {
    return { kind: 'open', chance: 0, options: 0 };
  }
  const n = options.length;
  if (keys.length > 1 || MULTI_WORDING.test(question)) {
    return { kind: 'mc-multi', chance: 1 / (2 ** n - 1), options: n };
  }
  return { kind: 'mc', chance: 1 / n, options: n };
}
