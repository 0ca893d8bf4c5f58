/**
 * The clipped policy-gradient loss of GRPO and its relatives, as a pure function of per-token
 * log-probabilities. It returns the loss value and its exact derivative with respect to every
 * token's current log-probability, so a model backend only has to back-propagate a weighted
 * sum of token log-probabilities (see `TrainablePolicy.backward`).
 */
import { klEstimate, type KlEstimator } from './kl.js';
import { TrainError } from '../train-error.js';

/**
 * How per-token losses are combined into one number.
 * - `token_mean` (DAPO): sum over all trainable tokens of the batch / their count.
 * - `sequence_mean` (original GRPO): mean over tokens within a sequence, then over sequences.
 * - `constant` (Dr. GRPO): sum over all tokens / (number of sequences × `maxCompletionTokens`), so
 *   long and short answers weigh the same per token. `maxCompletionTokens` must be a constant of
 *   the setup (the generation budget; the trainer passes `completionTokenBudget(rollout)` =
 *   maxTurns × maxNewTokensPerTurn), not a sampled length.
 */
export type LossAggregation = 'token_mean' | 'sequence_mean' | 'constant';

/** `token`: one importance ratio per token (PPO/GRPO); `sequence`: GSPO's length-normalised sequence ratio. */
export type ImportanceLevel = 'token' | 'sequence';

/** One sampled sequence of the batch, as seen by the loss. All arrays have the same length. */
export interface LossSequence {
  /** log π_θ(token_t) under the parameters being optimised. */
  logprobs: ArrayLike<number>;
  /** log π_old(token_t) recorded when the sequence was sampled (equal to `logprobs` on the first μ-iteration). */
  oldLogprobs: ArrayLike<number>;
  /** log π_ref(token_t) under the reference model; required when `beta` > 0. */
  refLogprobs?: ArrayLike<number>;
  /** Per-token entropy of the policy's distribution; only used when `entropyCoef` > 0. */
  entropies?: ArrayLike<number>;
  /** 1 for tokens the model generated and should learn from, 0 for prompt/tool-response tokens. */
  mask: ArrayLike<number>;
  /**
   * The advantage: one scalar broadcast over the sequence's tokens (episode-level credit), or one
   * value per token, of the same length as `logprobs` (turn-level credit: every token of an
   * assistant turn carries that turn's advantage).
   */
  advantage: number | ArrayLike<number>;
  /**
   * Importance weight of each token's surrogate term for tokens drawn from a sampler other than
   * π_old (`samplerCorrectionWeights`): a constant of the loss, like TRL's vLLM correction; the KL
   * and entropy terms are not weighted. Absent: 1.
   */
  samplerWeights?: ArrayLike<number>;
}

/** Options of {@link policyLoss}. */
export interface PolicyLossOptions {
  /** Lower clip range: ratios below 1 − ε_low stop pushing down (default 0.2). */
  epsilonLow?: number;
  /** Upper clip range (clip-higher): ratios above 1 + ε_high stop pushing up (default 0.2; DAPO uses 0.28). */
  epsilonHigh?: number;
  /** KL coefficient β (default 0: no reference model needed). */
  beta?: number;
  /** KL estimator (default `k3`). */
  klEstimator?: KlEstimator;
  /** Entropy bonus coefficient: the loss subtracts coef × entropy (default 0). */
  entropyCoef?: number;
  /** Loss aggregation (default `token_mean`). */
  aggregation?: LossAggregation;
  /** Token versus sequence (GSPO) importance ratios (default `token`). */
  importanceLevel?: ImportanceLevel;
  /** The completion-token budget L of one sequence: `constant` aggregation divides by (sequences × L) (required for it). */
  maxCompletionTokens?: number;
}

/** Diagnostics of one loss evaluation, averaged over trainable tokens (TRL's names in comments). */
export interface PolicyLossMetrics {
  /** Share of tokens whose ratio fell below 1 − ε_low with a negative advantage (`clip_ratio/low_mean`). */
  clipRatioLow: number;
  /** Share of tokens whose ratio rose above 1 + ε_high with a positive advantage (`clip_ratio/high_mean`). */
  clipRatioHigh: number;
  /** Either of the above (`clip_ratio/region_mean`). */
  clipRatioRegion: number;
  /** Mean per-token KL estimate (`kl`); 0 when β = 0 and no reference log-probs are given. */
  kl: number;
  /** Mean per-token entropy when entropies are given (`entropy`), else NaN. */
  entropy: number;
  /** Mean importance ratio. */
  ratioMean: number;
  /** Number of trainable tokens. */
  tokens: number;
}

/** Result of {@link policyLoss}. */
export interface PolicyLossResult {
  loss: number;
  /** ∂loss/∂logprobs[t] for every sequence and token (0 on masked tokens). */
  logprobGrads: Float64Array[];
  /** ∂loss/∂entropies[t] (−coef × aggregation weight); all zero when `entropyCoef` is 0. */
  entropyGrads: Float64Array[];
  metrics: PolicyLossMetrics;
}

/** Thrown for inconsistent loss inputs (length mismatch, missing reference log-probs, bad options). */
export class PolicyLossInputError extends TrainError {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyLossInputError';
  }
}

/** Aggregation weight of every trainable token in sequence i: loss = Σ_i Σ_t w_i · m_t · ℓ_t. */
function aggregationWeights(
  sequences: readonly LossSequence[],
  aggregation: LossAggregation,
  maxCompletionTokens: number | undefined,
): number[] {
  const counts = sequences.map((s) => maskedCount(s.mask));
  const total = counts.reduce((a, b) => a + b, 0);
  switch (aggregation) {
    case 'token_mean':
      return counts.map(() => (total > 0 ? 1 / total : 0));
    case 'sequence_mean':
      return counts.map((c) => (c > 0 ? 1 / (c * sequences.length) : 0));
    case 'constant': {
      if (!(maxCompletionTokens !== undefined && maxCompletionTokens > 0)) {
        throw new PolicyLossInputError("aggregation 'constant' (Dr. GRPO) needs maxCompletionTokens > 0");
      }
      return counts.map(() => 1 / (sequences.length * maxCompletionTokens));
    }
    default: {
      const never: never = aggregation;
      throw new PolicyLossInputError(`unknown aggregation ${String(never)}`);
    }
  }
}

function maskedCount(mask: ArrayLike<number>): number {
  let c = 0;
  for (let t = 0; t < mask.length; t++) if (mask[t]! > 0) c++;
  return c;
}

/**
 * The clipped surrogate with optional KL penalty and entropy bonus:
 *
 * ℓ_t = −w_t·min(ρ_t·A, clip(ρ_t, 1−ε_low, 1+ε_high)·A) + β·KL_t − c_H·H_t, aggregated by `aggregation`,
 * where w_t is the sampler-correction weight (`samplerWeights`, default 1).
 *
 * With `importanceLevel: 'sequence'` (GSPO) every token of sequence i uses
 * s_i = exp(mean_t(log π_θ − log π_old)) instead of its own ratio.
 *
 * @example
 * ```ts
 * const r = policyLoss([{ logprobs: [-1, -2], oldLogprobs: [-1, -2], mask: [1, 1], advantage: 1 }]);
 * r.loss;           // −1 (ratios are 1)
 * r.logprobGrads[0] // [−0.5, −0.5]: raising either token's log-prob lowers the loss
 * ```
 */
export function policyLoss(sequences: readonly LossSequence[], options: PolicyLossOptions = {}): PolicyLossResult {
  const epsLow = options.epsilonLow ?? 0.2;
  const epsHigh = options.epsilonHigh ?? 0.2;
  const beta = options.beta ?? 0;
  const klKind = options.klEstimator ?? 'k3';
  const entropyCoef = options.entropyCoef ?? 0;
  const level = options.importanceLevel ?? 'token';
  const weights = aggregationWeights(sequences, options.aggregation ?? 'token_mean', options.maxCompletionTokens);

  let loss = 0;
  let low = 0, high = 0, klSum = 0, entropySum = 0, ratioSum = 0, tokens = 0;
  let entropySeen = false;
  const logprobGrads: Float64Array[] = [];
  const entropyGrads: Float64Array[] = [];

  sequences.forEach((seq, i) => {
    const n = seq.logprobs.length;
    if (seq.oldLogprobs.length !== n || seq.mask.length !== n) {
      throw new PolicyLossInputError(`sequence ${i}: logprobs (${n}), oldLogprobs (${seq.oldLogprobs.length}) and mask (${seq.mask.length}) must have equal lengths`);
    }
    if (beta > 0 && (!seq.refLogprobs || seq.refLogprobs.length !== n)) {
      throw new PolicyLossInputError(`sequence ${i}: beta > 0 needs refLogprobs of length ${n} (score the batch with the reference model, or set beta 0)`);
    }
    const w = weights[i]!;
    const scalar = typeof seq.advantage === 'number' ? seq.advantage : undefined;
    const perToken = typeof seq.advantage === 'number' ? undefined : seq.advantage;
    if (perToken && perToken.length !== n) {
      throw new PolicyLossInputError(`sequence ${i}: per-token advantages (${perToken.length}) must match logprobs (${n})`);
    }
    if (seq.samplerWeights && seq.samplerWeights.length !== n) {
      throw new PolicyLossInputError(`sequence ${i}: samplerWeights (${seq.samplerWeights.length}) must match logprobs (${n})`);
    }
    const g = new Float64Array(n);
    const ge = new Float64Array(n);
    const count = maskedCount(seq.mask);

    // GSPO: one ratio per sequence from the mean log-ratio of its trainable tokens.
    let seqRatio = 1;
    if (level === 'sequence' && count > 0) {
      let s = 0;
      for (let t = 0; t < n; t++) if (seq.mask[t]! > 0) s += seq.logprobs[t]! - seq.oldLogprobs[t]!;
      seqRatio = Math.exp(s / count);
    }
    let seqSurrogateGrad = 0; // Σ_t w·∂ℓ_t/∂s for GSPO, spread over tokens afterwards

    for (let t = 0; t < n; t++) {
      if (!(seq.mask[t]! > 0)) continue;
      tokens++;
      const a = scalar ?? perToken![t]!;
      const ratio = level === 'sequence' ? seqRatio : Math.exp(seq.logprobs[t]! - seq.oldLogprobs[t]!);
      ratioSum += ratio;
      const clipped = Math.min(1 + epsHigh, Math.max(1 - epsLow, ratio));
      const unclippedTerm = ratio * a;
      const clippedTerm = clipped * a;
      const isLow = ratio < 1 - epsLow && a < 0;
      const isHigh = ratio > 1 + epsHigh && a > 0;
      if (isLow) low++;
      if (isHigh) high++;
      // The min picks the clipped (constant) branch exactly when the ratio left the trust region
      // in the direction the advantage pushes it; there the gradient is zero.
      const usesClipped = clippedTerm < unclippedTerm;
      const sw = seq.samplerWeights ? seq.samplerWeights[t]! : 1;
      loss += w * sw * -Math.min(unclippedTerm, clippedTerm);
      const dSurrogate = usesClipped ? 0 : -a * sw; // ∂ℓ/∂ratio
      if (level === 'token') g[t]! += w * dSurrogate * ratio;
      else seqSurrogateGrad += w * dSurrogate;

      if (seq.refLogprobs) {
        const kl = klEstimate(seq.logprobs[t]! - seq.refLogprobs[t]!, klKind);
        klSum += kl.value;
        if (beta > 0) {
          loss += w * beta * kl.value;
          g[t]! += w * beta * kl.grad;
        }
      }
      if (seq.entropies) {
        entropySeen = true;
        const h = seq.entropies[t]!;
        entropySum += h;
        if (entropyCoef !== 0) {
          loss -= w * entropyCoef * h;
          ge[t] = -w * entropyCoef;
        }
      }
    }
    if (level === 'sequence' && count > 0) {
      // ∂s/∂logprobs[t] = s / count for every trainable token.
      for (let t = 0; t < n; t++) if (seq.mask[t]! > 0) g[t]! += (seqSurrogateGrad * seqRatio) / count;
    }
    logprobGrads.push(g);
    entropyGrads.push(ge);
  });

  const perToken = (x: number) => (tokens > 0 ? x / tokens : 0);
  return {
    loss,
    logprobGrads,
    entropyGrads,
    metrics: {
      clipRatioLow: perToken(low),
      clipRatioHigh: perToken(high),
      clipRatioRegion: perToken(low + high),
      kl: perToken(klSum),
      entropy: entropySeen && tokens > 0 ? entropySum / tokens : Number.NaN,
      ratioMean: perToken(ratioSum),
      tokens,
    },
  };
}

/**
 * The gradient of the SFT loss with respect to each token's log-probability: −1/N on each of the
 * batch's N masked tokens, 0 elsewhere. It does not depend on the log-probabilities, so a backward
 * pass can run without a scoring pass before it.
 *
 * @example
 * ```ts
 * sftLogprobWeights([[0, 1], [1]]).weights[0]; // Float64Array [0, -0.5]
 * ```
 */
export function sftLogprobWeights(masks: readonly ArrayLike<number>[]): { weights: Float64Array[]; tokens: number } {
  const tokens = masks.reduce((acc, m) => acc + maskedCount(m), 0);
  const weights = masks.map((mask) => {
    const g = new Float64Array(mask.length);
    if (tokens === 0) return g;
    for (let t = 0; t < mask.length; t++) if (mask[t]! > 0) g[t] = -1 / tokens;
    return g;
  });
  return { weights, tokens };
}

/**
 * Supervised (SFT) cross-entropy on the masked tokens: −Σ m_t log p_t / Σ m_t over the batch,
 * with its gradient with respect to each token's log-probability ({@link sftLogprobWeights}).
 *
 * @example
 * ```ts
 * sftLoss([{ logprobs: [-1, -3], mask: [0, 1] }]).loss; // 3
 * ```
 */
export function sftLoss(sequences: readonly { logprobs: ArrayLike<number>; mask: ArrayLike<number> }[]): {
  loss: number;
  logprobGrads: Float64Array[];
  tokens: number;
} {
  sequences.forEach((s, i) => {
    if (s.mask.length !== s.logprobs.length) {
      throw new PolicyLossInputError(`sequence ${i}: logprobs (${s.logprobs.length}) and mask (${s.mask.length}) differ in length`);
    }
  });
  const { weights, tokens } = sftLogprobWeights(sequences.map((s) => s.mask));
  let loss = 0;
  sequences.forEach((s, i) => {
    const w = weights[i]!;
    for (let t = 0; t < w.length; t++) if (w[t] !== 0) loss += w[t]! * s.logprobs[t]!;
  });
  return { loss, logprobGrads: weights, tokens };
}
