/**
 * Sampled evaluation: with n samples per question, pass@k (the chance that at least one of k
 * samples is right, estimated without bias from all n) and majority vote (the most frequent
 * answer decides). pass@k − pass@1 is the headroom reinforcement learning can turn into greedy
 * success: a policy whose samples never disagree has nothing to sharpen.
 */

/**
 * Unbiased pass@k for one question from n samples of which c are correct:
 * 1 − C(n−c, k) / C(n, k) (Chen et al., 2021), computed as a product to stay exact for large n.
 *
 * @example
 * ```ts
 * passAtK(8, 2, 1); // 0.25
 * passAtK(8, 2, 8); // 1
 * ```
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 1 || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(`passAtK needs integers 0 ≤ c ≤ n and 1 ≤ k ≤ n, got n=${n} c=${c} k=${k}`);
  }
  if (n - c < k) return 1;
  // C(n−c, k) / C(n, k) = Π_{i=n−c+1}^{n} (1 − k/i)
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

/** One sampled episode of a question: whether it was judged correct, and its final answer (if any). */
export interface SampleOutcome {
  correct: boolean;
  /** The answer the episode submitted, normalised by the caller; undefined when it never answered. */
  answer?: string;
}

/**
 * Majority vote over one question's samples: the most frequent submitted answer wins (ties go to
 * the answer seen first); the vote is correct when that answer's episodes were judged correct.
 * Samples that never answered do not vote; a question nobody answered counts as wrong.
 *
 * @example
 * ```ts
 * majorityVote([{ correct: true, answer: '3' }, { correct: false, answer: '4' }, { correct: true, answer: '3' }]); // true
 * ```
 */
export function majorityVote(samples: readonly SampleOutcome[]): boolean {
  const votes = new Map<string, { count: number; correct: boolean }>();
  for (const s of samples) {
    if (s.answer === undefined) continue;
    const v = votes.get(s.answer);
    if (v) v.count++;
    else votes.set(s.answer, { count: 1, correct: s.correct });
  }
  let best: { count: number; correct: boolean } | undefined;
  for (const v of votes.values()) if (!best || v.count > best.count) best = v;
  return best?.correct ?? false;
}

/** pass@1, pass@k and majority vote over a split, each the mean over its questions. */
export interface SampledScores {
  questions: number;
  samples: number;
  k: number;
  /** Expected success of one sample (the mean correct share). */
  passAt1: number;
  passAtK: number;
  majority: number;
}

/**
 * Scores a split from each question's samples (every question must have the same count n ≥ k).
 *
 * @example
 * ```ts
 * sampledScores([[{ correct: true, answer: 'a' }, { correct: false, answer: 'b' }]], 2).passAtK; // 1
 * ```
 */
export function sampledScores(byQuestion: readonly (readonly SampleOutcome[])[], k: number): SampledScores {
  const n = byQuestion[0]?.length ?? 0;
  if (byQuestion.some((s) => s.length !== n)) throw new RangeError('sampledScores: every question needs the same number of samples');
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const correct = byQuestion.map((s) => s.filter((x) => x.correct).length);
  return {
    questions: byQuestion.length,
    samples: n,
    k,
    passAt1: mean(correct.map((c) => c / Math.max(1, n))),
    passAtK: mean(correct.map((c) => passAtK(n, c, k))),
    majority: mean(byQuestion.map((s) => (majorityVote(s) ? 1 : 0))),
  };
}
