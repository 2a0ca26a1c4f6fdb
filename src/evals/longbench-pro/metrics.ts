/**
 * LongBench Pro's scoring rules, reimplemented: the prediction is what follows
 * the last `[Answer]` (or `[答案]`) marker, read as lines; each answer key is
 * one line. Keys and lines are compared lower-cased with whitespace collapsed.
 */

const MARKERS = ['[Answer]', '[答案]'];

/** A line or key as compared: lower case, whitespace runs collapsed, trimmed. */
export function normalizeLine(text: string): string {
  return text.toLowerCase().split(/\s+/u).filter(Boolean).join(' ');
}

/** The prediction's answer lines: after the last marker (if any), trimmed, one entry per line. */
export function answerLines(prediction: string): string[] {
  let area = prediction;
  for (const marker of MARKERS) {
    const at = area.lastIndexOf(marker);
    if (at >= 0) {
      area = area.slice(at + marker.length);
      break;
    }
  }
  area = area.trim();
  if (area === '') return [];
  return area.split('\n').map(normalizeLine);
}

function keysOf(answer: readonly string[]): string[] {
  return answer.map((a) => normalizeLine(String(a)));
}

/** 1 when the first answer line equals the first key, else 0. */
export function firstLineAccuracy(answer: readonly string[], prediction: string): number {
  const keys = keysOf(answer);
  const lines = answerLines(prediction);
  return keys.length > 0 && lines.length > 0 && keys[0] === lines[0] ? 1 : 0;
}

/** The share of keys that appear as a whole line of the prediction. */
export function subEm(answer: readonly string[], prediction: string): number {
  const keys = keysOf(answer);
  const lines = new Set(answerLines(prediction));
  if (keys.length === 0 || lines.size === 0) return 0;
  return keys.filter((k) => lines.has(k)).length / keys.length;
}

/** F1 between the set of keys and the set of predicted lines. */
export function f1(answer: readonly string[], prediction: string): number {
  const keys = new Set(keysOf(answer));
  const lines = new Set(answerLines(prediction));
  let common = 0;
  for (const line of lines) if (keys.has(line)) common++;
  if (common === 0) return 0;
  const precision = common / lines.size;
  const recall = common / keys.size;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * Key pairs (in key order) that the prediction puts in the same order, over
 * every pair of predicted lines, so extra lines cost as missing ones do. A
 * line given twice counts at its last place.
 */
export function pairwiseOrder(answer: readonly string[], prediction: string): number {
  const keys = keysOf(answer);
  const lines = answerLines(prediction);
  if (keys.length < 2 || lines.length < 2) return 0;
  const place = new Map<string, number>();
  for (const [i, line] of lines.entries()) place.set(line, i);
  let right = 0;
  for (let i = 0; i < keys.length; i++) {
    for (let j = i + 1; j < keys.length; j++) {
      const a = place.get(keys[i] as string);
      const b = place.get(keys[j] as string);
      if (a !== undefined && b !== undefined && a < b) right++;
    }
  }
  return right / ((lines.length * (lines.length - 1)) / 2);
}

/**
 * NDCG over the first k predicted lines (k = number of keys), the i-th key
 * (0-based) having relevance k - i. Unlike the upstream code, a key counts at
 * its first place only: upstream credits every repeat, so a prediction that
 * repeats its top line scores as high as the right ranking.
 */
export function ndcg(answer: readonly string[], prediction: string): number {
  const keys = keysOf(answer);
  const lines = answerLines(prediction);
  const k = keys.length;
  if (k === 0 || lines.length === 0) return 0;
  const relevance = new Map<string, number>();
  keys.forEach((key, i) => {
    if (!relevance.has(key)) relevance.set(key, k - i);
  });
  let dcg = 0;
  const seen = new Set<string>();
  lines.slice(0, k).forEach((line, i) => {
    if (seen.has(line)) return;
    seen.add(line);
    dcg += (relevance.get(line) ?? 0) / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < k; i++) ideal += (k - i) / Math.log2(i + 2);
  return Math.min(1, dcg / ideal);
}
