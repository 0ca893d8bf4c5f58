/** Global-norm gradient clipping, as a graph transformation. */
import { GraphError } from '../graph/errors.js';
import type { Tensor } from '../graph/tensor.js';
import { add, div, minimum, mul, sqrt } from '../ops/elementwise.js';
import { reduceSum } from '../ops/reduce.js';

/**
 * Scale all gradients by `min(1, maxNorm / (‖g‖ + 1e-6))` where ‖g‖ is the L2 norm over all of
 * them (torch.nn.utils.clip_grad_norm_). Returns the clipped gradients and the pre-clip norm.
 *
 * @example
 * ```ts
 * const { grads: clipped, norm } = clipByGlobalNorm([dw1, dw2], 1.0);
 * ```
 */
export function clipByGlobalNorm(grads: readonly Tensor[], maxNorm: number): { grads: Tensor[]; norm: Tensor } {
  const first = grads[0];
  if (!first) throw new GraphError('clipByGlobalNorm: no gradients');
  const squares = grads.map((g) => reduceSum(mul(g, g)));
  const norm = sqrt(squares.reduce((a, b) => add(a, b)));
  const scale = minimum(div(first.graph.scalar(maxNorm, first.dtype), add(norm, 1e-6)), 1);
  return { grads: grads.map((g) => mul(g, scale)), norm };
}
