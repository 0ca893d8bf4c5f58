/**
 * How often a group of K samples carries no GRPO signal, and the start-of-training warning for
 * small groups.
 */

/**
 * Probability that a group of `k` binary-reward samples is all-success or all-failure (and so
 * gets advantage 0 everywhere) when each sample succeeds independently with probability `p`:
 * p^K + (1 − p)^K.
 *
 * @example
 * ```ts
 * expectedDeadGroupRate(0.18, 2); // ≈ 0.705
 * ```
 */
export function expectedDeadGroupRate(p: number, k: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`success probability must be in [0, 1], got ${p}`);
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`group size must be a positive integer, got ${k}`);
  return p ** k + (1 - p) ** k;
}

/**
 * The warning printed at the start of training when the group size is below 4, or `undefined`
 * when K ≥ 4. `baselineSuccess` (a quick estimate of the untrained policy's success rate) adds
 * the expected dead-group rate for this K and for K = 8.
 *
 * @example
 * ```ts
 * smallGroupWarning(2, 0.18); // "WARNING: group size K = 2 < 4 ..."
 * smallGroupWarning(8);       // undefined
 * ```
 */
export function smallGroupWarning(k: number, baselineSuccess?: number): string | undefined {
  if (k >= 4) return undefined;
  const lines = [
    `WARNING: group size K = ${k} < 4 (num_generations).`,
    k === 1
      ? '  With K = 1 every group has zero variance: GRPO advantages are all 0 and nothing is learned.'
      : '  With K = 2, z-scored advantages are always ±1 (population std) or ±1/√2 (sample std) whenever the two\n' +
        '  rewards differ, however small the gap: a 0.1-vs-0.2 pair pushes as hard as 0-vs-1, and a sample that\n' +
        '  did something right is pushed away whenever its partner did slightly better.',
  ];
  if (baselineSuccess !== undefined) {
    const dead = expectedDeadGroupRate(baselineSuccess, k);
    const dead8 = expectedDeadGroupRate(baselineSuccess, 8);
    lines.push(
      `  At the baseline success rate p = ${baselineSuccess.toFixed(2)}, a group of ${k} is dead (all equal) with probability ` +
        `p^K + (1−p)^K = ${(dead * 100).toFixed(1)}% (K = 8: ${(dead8 * 100).toFixed(1)}%).`,
    );
  }
  lines.push('  Remedies: K ≥ 8, dr_grpo or reinforce_pp_baseline advantages, advantage clipping, dynamic sampling.');
  return lines.join('\n');
}
