/** "Did you mean …?" suggestions for mistyped option names. */

/**
 * Levenshtein edit distance (insertions, deletions, substitutions, all cost 1).
 *
 * @example
 * ```ts
 * editDistance('numGeneration', 'numGenerations'); // 1
 * ```
 */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/**
 * The candidate closest to `name`, compared case-insensitively and ignoring `_`/`-` (so
 * `num_generations` finds `numGenerations`), or undefined when nothing is within a third of
 * the name's length.
 *
 * @example
 * ```ts
 * suggestName('lerning_rate', ['lr', 'learningRate']); // 'learningRate'
 * ```
 */
export function suggestName(name: string, candidates: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  const target = norm(name);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(target, norm(c));
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(target.length / 3)) ? best : undefined;
}
