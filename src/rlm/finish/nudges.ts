/**
 * When the loop nudges: a reply that did nothing, and one sub-call given
 * nearly all of a large context. The texts are in prompts/nudges.ts; each
 * nudge goes out as its own user message and is logged in the turn's record.
 */
import { NO_ACTION_TEXT, type Nudge } from '../prompts/nudges.js';
import type { PromptVersion } from '../prompts/types.js';

/** A reply with neither code nor a final answer (fence protocol, upstream layout). */
export function noActionNudge(): Nudge {
  return { kind: 'no_action', text: NO_ACTION_TEXT };
}

/** When one sub-call was given nearly all of a context larger than one call reads well. */
export function shouldDecompose(sizes: {
  promptChars: number;
  contextChars: number;
  perCallChars: number;
}): boolean {
  return sizes.contextChars > sizes.perCallChars && sizes.promptChars >= 0.9 * sizes.contextChars;
}

/** The decompose nudge in the prompt version's words. */
export function decomposeNudge(
  version: PromptVersion,
  sizes: { promptChars: number; contextChars: number; perCallChars: number },
): Nudge {
  return { kind: 'decompose', text: version.decompose(sizes) };
}
