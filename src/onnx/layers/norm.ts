/** Normalisation layers built from standard ops (so they differentiate through the op rules). */
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
  return mul(mul(x, inv), weight);
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
