/**
 * "Did you mean" suggestions for a mistyped name (an attribute type, a route name).
 *
 * Why by hand: one ~20-line edit distance (optimal string alignment, so a swapped pair of letters
 * counts once) is all the CLI and the route table need; no dependency of the framework offers one.
 */

/** The edit distance between two strings: insertions, deletions, substitutions and swaps count 1. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]![j] = j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The known name closest to `given` (compared case-insensitively), when it is close enough to be a
 * typo: at most a third of its length apart (and at least one edit).
 *
 * @example
 * didYouMean("strng", ["string", "text", "int"]); // "string"
 * didYouMean("postPth", ["postPath", "postsPath"]); // "postPath"
 */
export function didYouMean(given: string, known: Iterable<string>): string | undefined {
  const lower = given.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(given.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
