/** Global-norm gradient clipping over a set of gradient buffers. */
import { clipReference } from '../../onnx/optim/reference.js';

/**
 * The global L2 norm of all gradients: sqrt(Σ_buffers Σ_i g_i²).
 *
 * @example
 * ```ts
 * globalNorm([new Float32Array([3]), new Float32Array([4])]); // 5
 * ```
 */
export function globalNorm(grads: readonly ArrayLike<number>[]): number {
  let ss = 0;
  for (const g of grads) for (let i = 0; i < g.length; i++) ss += g[i]! * g[i]!;
  return Math.sqrt(ss);
}

/**
 * Scales all gradients in place so their global norm is at most `maxNorm`; returns the norm
 * before clipping (what trainers log as `grad_norm`).
 *
 * @example
 * ```ts
 * const g = [new Float32Array([3, 4])];
 * clipGlobalNorm(g, 1); // 5, and g[0] is now [0.6, 0.8]
 * ```
 */
export function clipGlobalNorm(grads: readonly (Float32Array | Float64Array)[], maxNorm: number): number {
  // One clipping rule for the whole project: the same one the ONNX optimizer graphs apply.
  return maxNorm > 0 ? clipReference(grads, maxNorm) : globalNorm(grads);
}
