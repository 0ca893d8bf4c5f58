/**
 * The one place where broadcasting is undone in the backward pass: a gradient shaped like the
 * broadcast result is summed back to the shape of the operand that was broadcast.
 */
import type { Tensor } from '../graph/tensor.js';
import { sameShape } from '../graph/shape.js';
import { reduceSum } from '../ops/reduce.js';
import { squeeze } from '../ops/shape-ops.js';

/**
 * Sum `grad` over the axes along which `like` was broadcast (leading extra axes, and axes where
 * `like` has a static 1). Symbolic dims of `like` are assumed not to be broadcast.
 *
 * @example
 * ```ts
 * // x: [4], y = x + m with m: [3, 4]  →  dx = unbroadcast(dy /* [3, 4] *\/, x) /* [4] *\/
 * ```
 */
export function unbroadcast(grad: Tensor, like: Tensor): Tensor {
  if (sameShape(grad.shape, like.shape)) return grad;
  const extra = grad.rank - like.rank;
  const axes: number[] = [];
  grad.shape.forEach((d, i) => {
    if (i < extra || (like.shape[i - extra] === 1 && d !== 1)) axes.push(i);
  });
  let out = axes.length > 0 ? reduceSum(grad, axes, true) : grad;
  if (extra > 0) out = squeeze(out, Array.from({ length: extra }, (_, i) => i));
  return out;
}
