import type { Preview, TokenCount } from './view-model.js';

/** Longest preview the viewer keeps of a prompt, answer or question it was given whole. */
export const PREVIEW_CHARS = 2_000;

/** Cuts `text` to `limit` characters, recording the full size. */
export function preview(text: string, limit = PREVIEW_CHARS, fullChars?: number): Preview {
  const chars = fullChars ?? text.length;
  const cut = text.length > limit || chars > text.length;
  return { text: text.length > limit ? text.slice(0, limit) : text, chars, cut };
}

/** One line of text for a timeline row. */
export function oneLine(text: string, limit = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

export function zeroTokens(): TokenCount {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
}

export function addTokens(into: TokenCount, add: TokenCount): void {
  into.inputTokens += add.inputTokens;
  into.outputTokens += add.outputTokens;
  into.cachedInputTokens += add.cachedInputTokens;
}
