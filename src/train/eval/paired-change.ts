/**
 * Did training change held-out success beyond chance? Two greedy evaluations of the same
 * questions (after SFT, after GRPO) are paired: only the questions one got right and the other
 * wrong carry information, and under "no change" each of those is equally likely to go either
 * way. That is the exact McNemar test. A difference of a question or two out of a hundred is
 * what float rounding alone produces between runs, so a verdict needs this, not the sign.
 */

/** The questions gained and lost between two evaluations of the same questions, and the test's p-value. */
export interface PairedChange {
  /** Wrong before, right after. */
  gained: number;
  /** Right before, wrong after. */
  lost: number;
  /** Two-sided exact McNemar p-value: the chance of a split at least this uneven when neither direction is favoured. */
  pValue: number;
}

/**
 * Two-sided exact McNemar p-value for `gained` and `lost` discordant pairs:
 * 2 · P(X ≤ min(gained, lost)) for X ~ Binomial(gained + lost, ½), at most 1.
 *
 * @example
 * ```ts
 * mcnemarExactP(3, 1); // 0.625: four changed questions, no evidence either way
 * mcnemarExactP(12, 1); // ≈ 0.0034
 * ```
 */
export function mcnemarExactP(gained: number, lost: number): number {
  if (!Number.isInteger(gained) || !Number.isInteger(lost) || gained < 0 || lost < 0) {
    throw new RangeError(`mcnemarExactP needs counts ≥ 0, got gained=${gained} lost=${lost}`);
  }
  const n = gained + lost;
  if (n === 0) return 1;
  const m = Math.min(gained, lost);
  // Σ_{i ≤ m} C(n, i) / 2^n, each term from the last: C(n, i) = C(n, i − 1) · (n − i + 1) / i.
  // 2^−n stays a normal double up to n = 1022; past that the terms are summed in log space.
  if (n <= 1000) {
    let term = 2 ** -n;
    let tail = term;
    for (let i = 1; i <= m; i++) {
      term *= (n - i + 1) / i;
      tail += term;
    }
    return Math.min(1, 2 * tail);
  }
  let logTerm = -n * Math.LN2;
  let logTail = logTerm;
  for (let i = 1; i <= m; i++) {
    logTerm += Math.log((n - i + 1) / i);
    logTail = Math.max(logTail, logTerm) + Math.log1p(Math.exp(-Math.abs(logTail - logTerm)));
  }
  return Math.min(1, 2 * Math.exp(logTail));
}

/**
 * Pairs two evaluations' per-question results (index i is the same question in both).
 *
 * @example
 * ```ts
 * pairedChange([true, false, false], [true, true, false]); // { gained: 1, lost: 0, pValue: 1 }
 * ```
 */
export function pairedChange(before: readonly boolean[], after: readonly boolean[]): PairedChange {
  if (before.length !== after.length) {
    throw new RangeError(`pairedChange needs results of the same questions, got ${before.length} before and ${after.length} after`);
  }
  let gained = 0;
  let lost = 0;
  for (let i = 0; i < before.length; i++) {
    if (after[i] && !before[i]) gained++;
    else if (before[i] && !after[i]) lost++;
  }
  return { gained, lost, pValue: mcnemarExactP(gained, lost) };
}
