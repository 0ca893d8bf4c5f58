/**
 * Levenshtein distance: the fewest single-character insertions, deletions and substitutions
 * that turn `a` into `b` (two-row dynamic programme, O(|a|·|b|) time).
 *
 * @example
 * ```ts
 * editDistance('kitten', 'sitting'); // 3
 * ```
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The `limit` candidates closest to `query` by case-insensitive edit distance (ties keep the
 * candidates' order).
 *
 * @example
 * ```ts
 * closestMatches('GuesNumber-v0', ['SQLEnv-v0', 'GuessNumber-v0']); // ['GuessNumber-v0', 'SQLEnv-v0']
 * ```
 */
export function closestMatches(query: string, candidates: readonly string[], limit = 3): string[] {
  const q = query.toLowerCase();
  return candidates
    .map((candidate, index) => ({ candidate, index, distance: editDistance(q, candidate.toLowerCase()) }))
    .sort((x, y) => x.distance - y.distance || x.index - y.index)
    .slice(0, limit)
    .map((x) => x.candidate);
}
