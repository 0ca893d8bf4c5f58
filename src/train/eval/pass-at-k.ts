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
  /** pass@k at k = 1, 2, 4, … and n itself: how fast success grows with more tries (see {@link passAtKCurve}). */
  curve: readonly PassAtKPoint[];
  /** Correct samples of each question, in question order (for {@link sharpeningHeadroom}). */
  correctPerQuestion: readonly number[];
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
    curve: passAtKCurve(correct, n),
    correctPerQuestion: correct,
  };
}

/** One point of a pass@k curve: the mean pass@k over the questions. */
export interface PassAtKPoint {
  k: number;
  passAtK: number;
}

/**
 * pass@k over a split at k = 1, 2, 4, … up to n, and at n itself, from each question's count of
 * correct samples out of n. Where the curve flattens, more samples stop finding new answers.
 *
 * @example
 * ```ts
 * passAtKCurve([0, 2, 4], 4); // [{ k: 1, passAtK: 0.5 }, { k: 2, passAtK: 0.611… }, { k: 4, passAtK: 0.667… }]
 * ```
 */
export function passAtKCurve(correctPerQuestion: readonly number[], n: number): PassAtKPoint[] {
  if (correctPerQuestion.length === 0 || n < 1) return [];
  const ks: number[] = [];
  for (let k = 1; k < n; k *= 2) ks.push(k);
  ks.push(n);
  return ks.map((k) => ({ k, passAtK: correctPerQuestion.reduce((a, c) => a + passAtK(n, c, k), 0) / correctPerQuestion.length }));
}

/**
 * What sharpening could gain: GRPO moves probability towards answers the policy already samples, so
 * what it can reach by sharpening is the questions greedy decoding gets right or at least one of K
 * samples gets right (more with larger K, and a question right in 1 sample of 64 is rarely learned).
 * A ceiling close to greedy means RL needs new behaviour, not sharper behaviour, to gain: measure it
 * after SFT before tuning GRPO.
 */
export interface SharpeningHeadroom {
  questions: number;
  /** Questions greedy decoding answered right. */
  greedyRight: number;
  /** Questions greedy missed that at least one sample answered right: what sharpening can win. */
  missedButSampled: number;
  /** Questions greedy answered right that no sample did: what sampling-based training may lose. */
  rightButNeverSampled: number;
  /** (greedyRight + missedButSampled) / questions. */
  ceiling: number;
}

/**
 * Compares greedy decoding with sampled episodes question by question.
 *
 * @example
 * ```ts
 * sharpeningHeadroom([true, false, false], [3, 1, 0]).ceiling; // 2/3: the second question is sometimes sampled right
 * ```
 */
export function sharpeningHeadroom(greedyCorrect: readonly boolean[], correctPerQuestion: readonly number[]): SharpeningHeadroom {
  if (greedyCorrect.length !== correctPerQuestion.length) {
    throw new RangeError(`sharpeningHeadroom: ${greedyCorrect.length} greedy episodes but ${correctPerQuestion.length} sampled questions; play the same questions both ways`);
  }
  const questions = greedyCorrect.length;
  let greedyRight = 0;
  let missedButSampled = 0;
  let rightButNeverSampled = 0;
  greedyCorrect.forEach((g, i) => {
    const sampled = correctPerQuestion[i]! > 0;
    if (g) greedyRight++;
    if (!g && sampled) missedButSampled++;
    if (g && !sampled) rightButNeverSampled++;
  });
  return { questions, greedyRight, missedButSampled, rightButNeverSampled, ceiling: questions === 0 ? 0 : (greedyRight + missedButSampled) / questions };
}
