/** Normalisation layers built from standard ops. */
import { setNodeGradient } from '../autodiff/custom.js';
import { unbroadcast } from '../autodiff/unbroadcast.js';
import type { Tensor } from '../graph/tensor.js';
import { add, mul, reciprocal, sqrt, sub } from '../ops/elementwise.js';
import { reduceMean } from '../ops/reduce.js';

/**
 * RMSNorm (Llama/Qwen): `x / sqrt(mean(x², -1) + eps) · weight`.
 *
 * @example
 * ```ts
 * const h = rmsNorm(x, g.input('ln1', 'float32', [256]), 1e-6);
 * ```
 */
export function rmsNorm(x: Tensor, weight: Tensor, eps = 1e-6): Tensor {
  const inv = reciprocal(sqrt(add(reduceMean(mul(x, x), [-1], true), eps)));
  const normed = mul(x, inv);
  const y = mul(normed, weight);
  // The gradient written for the whole norm, with g = dy·weight and n = normed:
  // dx = inv · (g − n · mean(g·n)), dweight = Σ dy·n. Six passes over x's shape, where the ops'
  // own rules take about ten (the mean's gradient spread to x's shape, x·x differentiated twice).
  setNodeGradient(y, ({ dy: [dy], wants, addGradient }) => {
    const g = mul(dy!, weight);
    addGradient(x, () => mul(inv, sub(g, mul(normed, reduceMean(mul(g, normed), [-1], true)))));
    return [undefined, wants[1] ? unbroadcast(mul(dy!, normed), weight) : undefined];
  });
  return y;
}

/**
 * LayerNorm over the last axis: `(x − mean) / sqrt(var + eps) · weight + bias`.
 *
 * @example
 * ```ts
 * const h = layerNorm(x, gamma, beta, 1e-5);
 * ```
 */
export function layerNorm(x: Tensor, weight: Tensor, bias: Tensor, eps = 1e-5): Tensor {
  const centered = sub(x, reduceMean(x, [-1], true));
  const inv = reciprocal(sqrt(add(reduceMean(mul(centered, centered), [-1], true), eps)));
  return add(mul(mul(centered, inv), weight), bias);
}
