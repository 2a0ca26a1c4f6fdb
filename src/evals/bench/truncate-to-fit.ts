/**
 * The longest head of a document whose plain prompt fits a token budget,
 * counted with a real tokenizer. Token counts of a growing prefix rise almost
 * monotonically, so a binary search on the cut finds it; the prompt returned
 * is always one that was counted and fits.
 */
import type { Message } from '../../lm/model.js';
import type { TokenEstimator } from '../../lm/tokens/estimator.js';
import { countRequest } from '../../lm/tokens/messages.js';
import { cutNote, plainMessages } from '../plain-prompt.js';

export interface FittedPrompt {
  messages: Message[];
  /** Tokens of the request by the estimator. */
  tokens: number;
  /** Characters of the document that were kept (all of them when it fits whole). */
  keptChars: number;
}

/** The fitted prompt, or undefined when even an empty document does not fit. */
export function truncateToFit(
  document: string,
  question: string,
  budget: number,
  estimator: TokenEstimator,
): FittedPrompt | undefined {
  const total = document.length;
  const build = (kept: number): { messages: Message[]; tokens: number } => {
    const messages =
      kept === total
        ? plainMessages(document, question)
        : plainMessages(document.slice(0, kept), question, cutNote(kept, total));
    return { messages, tokens: countRequest(messages, estimator) };
  };
  const whole = build(total);
  if (whole.tokens <= budget) return { ...whole, keptChars: total };
  let best = build(0);
  if (best.tokens > budget) return undefined;
  let bestKept = 0;
  let lo = 0;
  let hi = total;
  // Narrow the search around the cut the whole count's ratio predicts, so the
  // counts are of prefixes near the answer rather than of half the document.
  const guess = Math.floor((total * (budget - best.tokens)) / (whole.tokens - best.tokens));
  for (const factor of [0.8, 1.25]) {
    const at = safeCut(document, Math.min(total - 1, Math.max(1, Math.floor(guess * factor))));
    if (at <= lo || at >= hi) continue;
    const tried = build(at);
    if (tried.tokens <= budget) {
      lo = at;
      best = tried;
      bestKept = at;
    } else hi = at;
  }
  while (hi - lo > 1) {
    const mid = safeCut(document, Math.floor((lo + hi) / 2));
    if (mid <= lo || mid >= hi) break;
    const tried = build(mid);
    if (tried.tokens <= budget) {
      lo = mid;
      best = tried;
      bestKept = mid;
    } else hi = mid;
  }
  return { ...best, keptChars: bestKept };
}

/** A cut that does not split a surrogate pair. */
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return at > 0 && code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}
