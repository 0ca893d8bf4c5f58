/**
 * One optimizer update from a loss over token log-probabilities: back-propagate the per-token
 * weights through the policy in micro-batches, guard against NaN/Inf, clip, step AdamW.
 */
import { nonFiniteEntries } from '../diagnostics/finite-guard.js';
import { clipGlobalNorm } from '../optim/grad-clip.js';
import { zeroGradients, type AdamW } from '../optim/adamw.js';
import type { TrainablePolicy } from '../policy/trainable-policy.js';

/** What an update did. */
export interface UpdateReport {
  gradNorm: number;
  /** Non-finite entries found; when non-empty the update was skipped. */
  nonFinite: string[];
}

/**
 * Accumulates ∂loss/∂θ = Σ weights·∂logprob/∂θ over `microBatches` chunks (memory only: the
 * weights already carry the whole batch's normalisation, so the sum is exact), then applies
 * clipping and one AdamW step unless something is NaN/Inf.
 *
 * @example
 * ```ts
 * const r = await applyPolicyUpdate(policy, optimizer, seqs, lossResult.logprobGrads, undefined, { loss: lossResult.loss, lr: 1e-4, maxGradNorm: 1, microBatches: 2 });
 * ```
 */
export async function applyPolicyUpdate(
  policy: TrainablePolicy,
  optimizer: AdamW,
  sequences: readonly (readonly number[])[],
  logprobWeights: readonly Float64Array[],
  entropyWeights: readonly Float64Array[] | undefined,
  options: { loss: number; lr: number; maxGradNorm: number; microBatches: number },
): Promise<UpdateReport> {
  const params = policy.parameters();
  zeroGradients(params);
  const chunk = Math.max(1, Math.ceil(sequences.length / Math.max(1, options.microBatches)));
  for (let start = 0; start < sequences.length; start += chunk) {
    const end = Math.min(sequences.length, start + chunk);
    await policy.backward(sequences.slice(start, end), logprobWeights.slice(start, end), entropyWeights?.slice(start, end));
  }
  const checked: Record<string, number | ArrayLike<number>> = { loss: options.loss };
  for (const p of params) checked[p.name] = p.grad;
  const nonFinite = nonFiniteEntries(checked);
  if (nonFinite.length > 0) {
    zeroGradients(params);
    return { gradNorm: Number.NaN, nonFinite };
  }
  const gradNorm = clipGlobalNorm(params.map((p) => p.grad), options.maxGradNorm);
  optimizer.step(options.lr);
  return { gradNorm, nonFinite };
}
