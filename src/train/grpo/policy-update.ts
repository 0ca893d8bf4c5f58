/**
 * One optimizer update from a loss over token log-probabilities: back-propagate the per-token
 * weights through the policy in micro-batches into the optimizer's accumulators, then let the
 * optimizer guard against NaN/Inf, clip and step AdamW (where the policy keeps its parameters).
 */
import type { OptimizerStepReport, PolicyOptimizer } from '../optim/policy-optimizer.js';
import type { TokenScores, TrainablePolicy } from '../policy/trainable-policy.js';

/**
 * What an update did: the pre-clip gradient norm, the non-finite entries that made it skip, and
 * (when asked for and the backend returned them) the scores its backward pass computed.
 */
export interface UpdateReport extends OptimizerStepReport {
  /** The loss, as given or as computed from the returned scores. */
  loss: number;
  scores?: TokenScores[];
}

/**
 * Accumulates ∂loss/∂θ = Σ weights·∂logprob/∂θ over `microBatches` chunks (memory only: the
 * weights already carry the whole batch's normalisation, so the sum is exact), then applies
 * clipping and one AdamW step unless something is NaN/Inf. With `scores` the backward passes
 * also hand back their log-probs (and entropies), for metrics without a scoring pass.
 *
 * @example
 * ```ts
 * const r = await applyPolicyUpdate(policy, optimizer, seqs, lossResult.logprobGrads, undefined, { loss: lossResult.loss, lr: 1e-4, maxGradNorm: 1, microBatches: 2 });
 * ```
 */
export async function applyPolicyUpdate(
  policy: TrainablePolicy,
  optimizer: PolicyOptimizer,
  sequences: readonly (readonly number[])[],
  logprobWeights: readonly Float64Array[],
  entropyWeights: readonly Float64Array[] | undefined,
  options: {
    /** The loss, or how to compute it from the scores the backward passes returned (before the step, for its NaN guard). */
    loss: number | ((scores: TokenScores[] | undefined) => number | Promise<number>);
    lr: number;
    maxGradNorm: number;
    microBatches: number;
    scores?: { entropy?: boolean; weightedOnly?: boolean };
    promptLengths?: readonly number[];
    completionOnly?: boolean;
    /** The log-probs differentiated are at this temperature (default 1; GRPO: the rollout's). */
    temperature?: number;
  },
): Promise<UpdateReport> {
  optimizer.zeroGrad();
  const chunk = Math.max(1, Math.ceil(sequences.length / Math.max(1, options.microBatches)));
  let scores: TokenScores[] | undefined = options.scores ? [] : undefined;
  for (let start = 0; start < sequences.length; start += chunk) {
    const end = Math.min(sequences.length, start + chunk);
    const scored = await policy.backward(sequences.slice(start, end), logprobWeights.slice(start, end), entropyWeights?.slice(start, end), {
      ...(options.scores ? { scores: options.scores } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.promptLengths ? { promptLengths: options.promptLengths.slice(start, end), completionOnly: options.completionOnly ?? false } : {}),
    });
    // A backend that returns no scores for one chunk returns none at all.
    if (scores && scored) scores.push(...scored);
    else scores = undefined;
  }
  const loss = typeof options.loss === 'number' ? options.loss : await options.loss(scores);
  if (!Number.isFinite(loss)) {
    optimizer.zeroGrad();
    return { loss, gradNorm: Number.NaN, nonFinite: ['loss'] };
  }
  const report = await optimizer.step(options.lr, options.maxGradNorm);
  return scores ? { ...report, loss, scores } : { ...report, loss };
}
