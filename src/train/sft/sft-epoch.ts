/**
 * Supervised warm-up steps: cross-entropy on the assistant tokens of scripted trajectories.
 */
import type { Rng } from '../../base/rng.js';
import { sftLogprobWeights, sftLoss } from '../math/policy-loss.js';
import type { PolicyOptimizer } from '../optim/policy-optimizer.js';
import type { TokenScores, TrainablePolicy } from '../policy/trainable-policy.js';
import { applyPolicyUpdate } from '../grpo/policy-update.js';
import { lengthBuckets, planSharedPrompts } from '../../lm/compute/shared-prompts.js';
import type { SftSequence } from './oracle-trajectories.js';

/** Metrics of one SFT step. */
export interface SftStepResult {
  loss: number;
  gradNorm: number;
  tokens: number;
  skippedBecause: string[];
}

/** How many batches' worth of sequences {@link sftBatches} sorts by length together. */
export const LENGTH_GROUP_BATCHES = 32;

/**
 * The batches of an epoch: a seeded shuffle of the trajectories cut into `batchSize` chunks.
 * With `groupByLength`, each window of {@link LENGTH_GROUP_BATCHES} batches' worth of shuffled
 * sequences is sorted by length before it is cut, and the batches are shuffled again: rows of a
 * batch then have similar lengths, so little of a step's compute goes to padding, while every
 * epoch still sees every sequence once in a random order of batches.
 *
 * @example
 * ```ts
 * sftBatches(trajectories, 8, rng).length; // ceil(trajectories.length / 8)
 * sftBatches(trajectories, 8, rng, { groupByLength: true }); // same sequences, similar lengths per batch
 * ```
 */
export function sftBatches<S extends { tokens: readonly number[] }>(sequences: readonly S[], batchSize: number, rng: Rng, options: { groupByLength?: boolean } = {}): S[][] {
  const order = rng.shuffle([...sequences.keys()]);
  const cut = (indices: number[]): S[][] => {
    const out: S[][] = [];
    for (let i = 0; i < indices.length; i += batchSize) out.push(indices.slice(i, i + batchSize).map((j) => sequences[j]!));
    return out;
  };
  if (!options.groupByLength) return cut(order);
  const window = batchSize * LENGTH_GROUP_BATCHES;
  const batches: S[][] = [];
  for (let i = 0; i < order.length; i += window) {
    batches.push(...cut(order.slice(i, i + window).sort((a, b) => sequences[b]!.tokens.length - sequences[a]!.tokens.length)));
  }
  return rng.shuffle(batches);
}

/**
 * The share of a step's computed token positions that are padding, as the ONNX policy runs a
 * batch: the rows' shared prompt once, the continuations in length passes (`lengthBuckets`: each
 * row padded to the longest row of its pass), rows without a shared prompt in a pass of their own.
 *
 * @example
 * ```ts
 * paddingShare([[{ tokens: [1, 2, 3, 4], mask: [0, 0, 1, 1] }, { tokens: [1, 2, 5], mask: [0, 0, 1] }]]); // 1/6
 * ```
 */
export function paddingShare(batches: readonly (readonly Pick<SftSequence, 'tokens' | 'mask'>[])[]): number {
  let padded = 0;
  let computed = 0;
  for (const batch of batches) {
    const tokens = batch.map((s) => s.tokens);
    const plan = planSharedPrompts(tokens, sharedPromptLengths(batch));
    const passes = [...(plan.groups.length > 0 ? lengthBuckets(tokens, plan.groups) : []), ...(plan.alone.length > 0 ? [[{ rows: plan.alone, split: 0 }]] : [])];
    for (const pass of passes) {
      const rest = pass.flatMap((g) => g.rows.map((b) => tokens[b]!.length - g.split));
      const longest = Math.max(...rest);
      computed += longest * rest.length;
      padded += rest.reduce((a, r) => a + longest - r, 0);
    }
  }
  return computed > 0 ? padded / computed : 0;
}

/**
 * Where each sequence's shared prompt ends: the batch's longest common prefix (every trajectory
 * opens with the same system prompt), cut at the sequence's first trained token. A backend
 * computes that prefix once for the batch instead of once per row.
 *
 * @example
 * ```ts
 * sharedPromptLengths([{ tokens: [1, 2, 3, 4], mask: [0, 0, 1, 1] }, { tokens: [1, 2, 5], mask: [0, 0, 1] }]); // [2, 2]
 * ```
 */
export function sharedPromptLengths(batch: readonly Pick<SftSequence, 'tokens' | 'mask'>[]): number[] {
  const first = batch[0]?.tokens ?? [];
  let common = first.length;
  for (const s of batch) {
    let i = 0;
    while (i < common && i < s.tokens.length && s.tokens[i] === first[i]) i++;
    common = i;
  }
  return batch.map((s) => {
    const trained = s.mask.findIndex((m) => m > 0);
    return Math.min(common, trained < 0 ? s.tokens.length : trained);
  });
}

/**
 * One SFT optimizer step on a batch: one backward pass, which also returns the log-probs the
 * reported loss is computed from (the loss's gradient needs none), with the batch's common prompt
 * computed once.
 *
 * @example
 * ```ts
 * const r = await sftStep(policy, optimizer, batch, { lr: 1e-3, maxGradNorm: 1, microBatches: 1 });
 * ```
 */
export async function sftStep(
  policy: TrainablePolicy,
  optimizer: PolicyOptimizer,
  batch: readonly Pick<SftSequence, 'tokens' | 'mask'>[],
  options: { lr: number; maxGradNorm: number; microBatches: number },
): Promise<SftStepResult> {
  const sequences = batch.map((s) => s.tokens);
  const promptLengths = sharedPromptLengths(batch);
  const { weights } = sftLogprobWeights(batch.map((s) => s.mask));
  const loss = async (returned: TokenScores[] | undefined): Promise<number> => {
    // A backend that returns no scores from its backward pass is scored under the same weights.
    const scores = returned ?? (await policy.score(sequences, { promptLengths, completionOnly: true }));
    return sftLoss(batch.map((s, i) => ({ logprobs: scores[i]!.logprobs, mask: s.mask }))).loss;
  };
  // The loss reads only the trained tokens' log-probs: the LM head need not score the rest.
  const update = await applyPolicyUpdate(policy, optimizer, sequences, weights, undefined, { loss, scores: { weightedOnly: true }, promptLengths, completionOnly: true, ...options });
  return { loss: update.loss, gradNorm: update.gradNorm, tokens: sequences.reduce((a, s) => a + s.length, 0), skippedBecause: update.nonFinite };
}
