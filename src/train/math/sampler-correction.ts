/**
 * Importance weights that correct a policy-gradient update for tokens drawn from a sampler q other
 * than the policy π being trained (a decoding guide's logit biases, top-p/top-k renormalisation,
 * another device or precision, weights a step stale), as TRL and verl do for vLLM rollouts.
 *
 * The weight multiplies each token's surrogate term and is a constant of the update (detached):
 * E_q[w · A · ∇log π] = E_π[A · ∇log π] when w = π/q over the whole sequence. The sequence level
 * is that exact ratio: its expected update is the gradient of π's own objective (the cap C aside).
 * The token level weighs each token by its own ratio π_t/q_t: lower variance, but its expectation
 * still follows q's prefixes and q's continuations, so it is biased whenever q differs from π at
 * more than one position.
 */
import { PolicyLossInputError } from './policy-loss.js';

/** How tokens from another sampler are weighed: truncated (min(ρ, C)), masked (0 outside [1/C, C]), or not at all. */
export type SamplerCorrection = 'truncate' | 'mask' | 'none';

/** One ratio per episode (π(sequence)/q(sequence), exact) or one per token (π_t/q_t, biased over several steps). */
export type SamplerCorrectionLevel = 'sequence' | 'token';

/** One sampled sequence as the correction sees it; all arrays aligned with the sequence's tokens. */
export interface SamplerSequence {
  /** log π_old(token_t): the policy the update starts from, at the rollout temperature. */
  oldLogprobs: ArrayLike<number>;
  /** log q(token_t): the distribution the token was actually drawn from; absent when the sampler reported none (weight 1). */
  samplingLogprobs?: ArrayLike<number>;
  /** 1 on the tokens trained on. */
  mask: ArrayLike<number>;
}

/** Options of {@link samplerCorrectionWeights}. */
export interface SamplerCorrectionOptions {
  mode: SamplerCorrection;
  level: SamplerCorrectionLevel;
  /** C > 1: 'truncate' caps ratios at C; 'mask' zeroes ratios outside [1/C, C]. */
  cap: number;
}

/** What the correction saw, over trainable tokens that have sampling log-probs (TRL's names in comments). */
export interface SamplerCorrectionMetrics {
  /** Mean |log π_old − log q| (`sampling/sampling_logp_difference/mean`). */
  logpDifferenceMean: number;
  /** Max |log π_old − log q| (`sampling/sampling_logp_difference/max`). */
  logpDifferenceMax: number;
  /** Smallest, mean and largest applied weight, per token or per sequence (`sampling/importance_sampling_ratio/{min,mean,max}`). */
  weightMin: number;
  weightMean: number;
  weightMax: number;
  /** Share of trainable tokens whose weight was truncated or masked (a sequence's tokens all count when its ratio was). */
  correctedShare: number;
  /** Trainable tokens with sampling log-probs. */
  tokens: number;
}

/** Per-token weights (1 on untrained tokens and sequences without sampling log-probs) and the diagnostics. */
export interface SamplerCorrectionResult {
  weights: Float64Array[];
  metrics: SamplerCorrectionMetrics;
}

/**
 * The weight of one ratio and whether the cap changed it.
 *
 * @example
 * ```ts
 * cappedWeight(5, 'truncate', 3); // { weight: 3, corrected: true }
 * cappedWeight(0.2, 'mask', 3);   // { weight: 0, corrected: true }
 * ```
 */
export function cappedWeight(ratio: number, mode: SamplerCorrection, cap: number): { weight: number; corrected: boolean } {
  if (mode === 'none') return { weight: 1, corrected: false };
  if (mode === 'truncate') return ratio > cap ? { weight: cap, corrected: true } : { weight: ratio, corrected: false };
  return ratio > cap || ratio < 1 / cap ? { weight: 0, corrected: true } : { weight: ratio, corrected: false };
}

/**
 * Importance weights for tokens sampled from q, to multiply each token's surrogate term. Under
 * `mode: 'none'` every weight is 1 and the metrics still measure how far q was from π.
 *
 * @example
 * ```ts
 * const r = samplerCorrectionWeights(
 *   [{ oldLogprobs: [0, -1, -1], samplingLogprobs: [0, -0.5, -1], mask: [0, 1, 1] }],
 *   { mode: 'truncate', level: 'sequence', cap: 3 },
 * );
 * r.weights[0]; // [1, e^-0.5, e^-0.5]: π(seq)/q(seq) on every trained token
 * ```
 */
export function samplerCorrectionWeights(sequences: readonly SamplerSequence[], options: SamplerCorrectionOptions): SamplerCorrectionResult {
  if (!(options.cap > 1)) throw new PolicyLossInputError(`the sampler-correction cap C must be > 1 (got ${options.cap}): it bounds ratios to [1/C, C]; set grpo.loss.samplerCap above 1`);
  let diffSum = 0, diffMax = 0, tokens = 0, corrected = 0;
  let weightSum = 0, weightCount = 0, weightMin = Infinity, weightMax = -Infinity;
  const record = (w: number) => {
    weightSum += w;
    weightCount++;
    weightMin = Math.min(weightMin, w);
    weightMax = Math.max(weightMax, w);
  };
  const weights = sequences.map((seq, i) => {
    const n = seq.mask.length;
    const out = new Float64Array(n).fill(1);
    const sampling = seq.samplingLogprobs;
    if (!sampling) return out;
    if (sampling.length !== n || seq.oldLogprobs.length !== n) {
      throw new PolicyLossInputError(`sequence ${i}: oldLogprobs (${seq.oldLogprobs.length}), samplingLogprobs (${sampling.length}) and mask (${n}) must have equal lengths`);
    }
    let logRatioSum = 0, trained = 0;
    for (let t = 0; t < n; t++) {
      if (!(seq.mask[t]! > 0)) continue;
      const d = seq.oldLogprobs[t]! - sampling[t]!;
      diffSum += Math.abs(d);
      diffMax = Math.max(diffMax, Math.abs(d));
      logRatioSum += d;
      trained++;
      if (options.level === 'token') {
        const c = cappedWeight(Math.exp(d), options.mode, options.cap);
        out[t] = c.weight;
        if (c.corrected) corrected++;
        record(c.weight);
      }
    }
    tokens += trained;
    if (options.level === 'sequence' && trained > 0) {
      const c = cappedWeight(Math.exp(logRatioSum), options.mode, options.cap);
      for (let t = 0; t < n; t++) if (seq.mask[t]! > 0) out[t] = c.weight;
      if (c.corrected) corrected += trained;
      record(c.weight);
    }
    return out;
  });
  return {
    weights,
    metrics: {
      logpDifferenceMean: tokens > 0 ? diffSum / tokens : 0,
      logpDifferenceMax: diffMax,
      weightMin: weightCount > 0 ? weightMin : 1,
      weightMean: weightCount > 0 ? weightSum / weightCount : 1,
      weightMax: weightCount > 0 ? weightMax : 1,
      correctedShare: tokens > 0 ? corrected / tokens : 0,
      tokens,
    },
  };
}
