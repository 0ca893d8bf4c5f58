/** Losses from logits: token log-probabilities and masked softmax cross-entropy. */
import { setNodeGradient } from '../autodiff/custom.js';
import { ShapeError } from '../graph/errors.js';
import type { Tensor } from '../graph/tensor.js';
import { cast, div, equal, exp, maximum, mul, neg, not, where } from '../ops/elementwise.js';
import { matmul } from '../ops/matmul.js';
import { gatherElements, scatterElements } from '../ops/indexing.js';
import { logSoftmax } from '../ops/nn.js';
import { reduceSum } from '../ops/reduce.js';
import { squeeze, unsqueeze } from '../ops/shape-ops.js';

/**
 * `log softmax(logits)[target]` for every position: logits `[..., V]`, targets `[...]` int64.
 * Targets outside the vocabulary must be masked by the caller (see {@link softmaxCrossEntropy}).
 *
 * @example
 * ```ts
 * const lp = tokenLogProbs(logits /* [B, T, V] *\/, targets /* [B, T] *\/); // [B, T]
 * ```
 */
export function tokenLogProbs(logits: Tensor, targets: Tensor): Tensor {
  if (targets.rank !== logits.rank - 1) {
    throw new ShapeError('tokenLogProbs', `targets [${targets.shape.join(', ')}] must drop the vocabulary axis of logits [${logits.shape.join(', ')}]`);
  }
  return pickTargets(logits, logSoftmax(logits, -1), targets);
}

/**
 * `logSoftmax[target]` for every position, with the gradient written for the pair: the logits'
 * gradient is `g · (onehot − softmax)`, one pass for `softmax · (−g)` and one scatter-add of `g`
 * at the targets. Differentiating the gather and the log-softmax one by one writes a
 * vocabulary-sized tensor of zeros, scatters into it, and then makes three more passes over it.
 */
function pickTargets(logits: Tensor, logProbs: Tensor, targets: Tensor): Tensor {
  const index = unsqueeze(targets, [-1]);
  const picked = gatherElements(logProbs, index, -1);
  setNodeGradient(picked, ({ dy: [dy], addGradient }) => {
    addGradient(logits, () => scatterElements(mul(exp(logProbs), neg(dy!)), index, dy!, -1, 'add'));
    return [undefined, undefined];
  });
  return squeeze(picked, [-1]);
}

/**
 * {@link tokenLogProbs} plus the entropy H = −Σ_v p_v·log p_v of every position's full
 * distribution, both from one log-softmax (what an entropy bonus needs). H is a batched dot
 * product ([..., 1, V]·[..., V, 1]), so the only extra vocabulary-sized buffer is p.
 *
 * @example
 * ```ts
 * const { logprobs, entropy } = logProbsAndEntropy(logits /* [B, T, V] *\/, targets /* [B, T] *\/); // [B, T] each
 * ```
 */
export function logProbsAndEntropy(logits: Tensor, targets: Tensor): { logprobs: Tensor; entropy: Tensor } {
  if (targets.rank !== logits.rank - 1) {
    throw new ShapeError('logProbsAndEntropy', `targets [${targets.shape.join(', ')}] must drop the vocabulary axis of logits [${logits.shape.join(', ')}]`);
  }
  const ls = logSoftmax(logits, -1);
  const logprobs = pickTargets(logits, ls, targets);
  const entropy = neg(squeeze(matmul(unsqueeze(exp(ls), [-2]), unsqueeze(ls, [-1])), [-2, -1]));
  return { logprobs, entropy };
}

/** Options of {@link softmaxCrossEntropy}. */
export interface CrossEntropyOptions {
  /** Weights per target position (0 = ignore), float of the logits' dtype or bool. */
  readonly mask?: Tensor;
  /** Target id that means "ignore" (e.g. -100 or the pad id). */
  readonly ignoreIndex?: number;
  /** `'mean'` over kept positions (default), `'sum'`, or `'none'` (per position). */
  readonly reduction?: 'mean' | 'sum' | 'none';
}

/**
 * Mean negative log-likelihood of `targets` under `softmax(logits)`, ignoring masked positions.
 *
 * @example
 * ```ts
 * const loss = softmaxCrossEntropy(logits, targets, { ignoreIndex: -100 });
 * ```
 */
export function softmaxCrossEntropy(logits: Tensor, targets: Tensor, opts: CrossEntropyOptions = {}): Tensor {
  const g = logits.graph;
  let weight: Tensor | undefined = opts.mask && (opts.mask.dtype === 'bool' ? cast(opts.mask, logits.dtype) : opts.mask);
  let safeTargets = targets;
  if (opts.ignoreIndex !== undefined) {
    const ignored = equal(targets, g.scalar(opts.ignoreIndex, targets.dtype));
    safeTargets = where(ignored, g.scalar(0, targets.dtype), targets);
    const keep = cast(not(ignored), logits.dtype);
    weight = weight ? mul(weight, keep) : keep;
  }
  const nll = neg(tokenLogProbs(logits, safeTargets));
  const weighted = weight ? mul(nll, weight) : nll;
  const reduction = opts.reduction ?? 'mean';
  if (reduction === 'none') return weighted;
  const total = reduceSum(weighted);
  if (reduction === 'sum') return total;
  const count = weight ? maximum(reduceSum(weight), 1) : cast(sizeOf(targets), logits.dtype);
  return div(total, count);
}

/** Number of elements of `t` as an int64 scalar, known at run time. */
function sizeOf(t: Tensor): Tensor {
  return t.graph.apply('Size', [t], {}, [{ dtype: 'int64', shape: [] }], { noGrad: true })[0]!;
}
