/**
 * Supervised warm-up steps: cross-entropy on the assistant tokens of scripted trajectories.
 */
import type { Rng } from '../../base/rng.js';
import { sftLoss } from '../math/policy-loss.js';
import type { PolicyOptimizer } from '../optim/policy-optimizer.js';
import type { TrainablePolicy } from '../policy/trainable-policy.js';
import { applyPolicyUpdate } from '../grpo/policy-update.js';
import type { SftSequence } from './oracle-trajectories.js';

/** Metrics of one SFT step. */
export interface SftStepResult {
  loss: number;
  gradNorm: number;
  tokens: number;
  skippedBecause: string[];
}

/**
 * The batches of an epoch: a seeded shuffle of the trajectories cut into `batchSize` chunks.
 *
 * @example
 * ```ts
 * sftBatches(trajectories, 8, rng).length; // ceil(trajectories.length / 8)
 * ```
 */
export function sftBatches(sequences: readonly SftSequence[], batchSize: number, rng: Rng): SftSequence[][] {
  const order = rng.shuffle([...sequences.keys()]);
  const out: SftSequence[][] = [];
  for (let i = 0; i < order.length; i += batchSize) out.push(order.slice(i, i + batchSize).map((j) => sequences[j]!));
  return out;
}

/**
 * One SFT optimizer step on a batch.
 *
 * @example
 * ```ts
 * const r = await sftStep(policy, optimizer, batch, { lr: 1e-3, maxGradNorm: 1, microBatches: 1 });
 * ```
 */
export async function sftStep(
  policy: TrainablePolicy,
  optimizer: PolicyOptimizer,
  batch: readonly SftSequence[],
  options: { lr: number; maxGradNorm: number; microBatches: number },
): Promise<SftStepResult> {
  const sequences = batch.map((s) => s.tokens);
  const scores = await policy.score(sequences);
  const result = sftLoss(batch.map((s, i) => ({ logprobs: scores[i]!.logprobs, mask: s.mask })));
  const update = await applyPolicyUpdate(policy, optimizer, sequences, result.logprobGrads, undefined, { loss: result.loss, ...options });
  return { loss: result.loss, gradNorm: update.gradNorm, tokens: sequences.reduce((a, s) => a + s.length, 0), skippedBecause: update.nonFinite };
}
