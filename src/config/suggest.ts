/** Closest-name suggestions for unknown keys and profile names. */

/** Edit distance (insertions, deletions, substitutions) between two strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate closest to `name`, or undefined when none is close enough to
 * be a plausible typo (distance at most a third of the longer name, min 2).
 */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase().replaceAll('-', '_');
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase().replaceAll('-', '_'));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.max(2, Math.floor(Math.max(name.length, best?.length ?? 0) / 3));
  return bestDistance <= limit ? best : undefined;
}
