/**
 * Reading a frame's answer against its contract. A schema answer must be one
 * JSON value; a reply that is nothing but one fenced block (```json ... ```)
 * is read as its inside, since models add fences however they are asked.
 */
import { safeParseJson } from '../util/safe-json.js';
import type { Contract } from './contract.js';

/** The answer checked: its value, or what was wrong (for the repair request). */
export type AnswerCheck = { ok: true; value: unknown } | { ok: false; problems: string[] };

const FENCED = /^```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;

/** The JSON text of a reply: the reply itself, or the inside of its only fence. */
export function jsonText(content: string): string {
  const trimmed = content.trim();
  const fenced = FENCED.exec(trimmed);
  const inside = fenced?.[1];
  return inside !== undefined && !inside.includes('```') ? inside.trim() : trimmed;
}

/** Checks a reply's content (cut short or not) against the contract. */
export function checkAnswer(content: string, contract: Contract, cutShort: boolean): AnswerCheck {
  if (contract.kind === 'text') {
    if (cutShort) {
      return {
        ok: false,
        problems: ['the answer was cut off by the output limit; answer again, more briefly'],
      };
    }
    if (content.trim() === '') return { ok: false, problems: ['the answer was empty'] };
    return { ok: true, value: content };
  }
  const text = jsonText(content);
  if (text === '') return { ok: false, problems: ['the answer was empty; send one JSON value'] };
  const parsed = safeParseJson(text);
  if (!parsed.ok) {
    const why = cutShort ? 'it was cut off by the output limit' : parsed.error;
    return { ok: false, problems: [`the answer is not one JSON value: ${why}`] };
  }
  const checked = contract.check(parsed.value);
  if (checked.ok) return { ok: true, value: checked.value };
  return { ok: false, problems: checked.errors.slice(0, 20) };
}
