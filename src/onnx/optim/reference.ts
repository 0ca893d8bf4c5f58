/**
 * Plain TypeScript implementations of the optimizers. They verify the ONNX graphs step by step
 * (in float64), and they are the host-side optimizer of trainers whose gradients arrive on the
 * host (src/train's AdamW runs this very step over float32 buffers), so the update rule exists once.
 */
import type { AdamWConfig } from './adamw.js';
import type { SgdConfig } from './sgd.js';

/** A host buffer an optimizer updates in place: float64 for references, float32 for training. */
export type HostBuffer = Float64Array | Float32Array;

/**
 * One AdamW step in place on `p`, `m`, `v` (t is 1-based); decoupled weight decay
 * θ ← θ − lr·(m̂ / (√v̂ + ε) + λ·θ).
 *
 * @example
 * ```ts
 * adamwReferenceStep(p, g, m, v, 1, 1e-3, { weightDecay: 0 });
 * ```
 */
export function adamwReferenceStep(p: HostBuffer, g: ArrayLike<number>, m: HostBuffer, v: HostBuffer, t: number, lr: number, c: AdamWConfig = {}): void {
  const [b1, b2, eps, wd] = [c.beta1 ?? 0.9, c.beta2 ?? 0.999, c.eps ?? 1e-8, c.weightDecay ?? 0.01];
  for (let i = 0; i < p.length; i++) {
    const gi = g[i]!;
    p[i] = p[i]! * (1 - lr * wd);
    m[i] = b1 * m[i]! + (1 - b1) * gi;
    v[i] = b2 * v[i]! + (1 - b2) * gi * gi;
    const mHat = m[i]! / (1 - b1 ** t);
    const vHat = v[i]! / (1 - b2 ** t);
    p[i] = p[i]! - (lr * mHat) / (Math.sqrt(vHat) + eps);
  }
}

/** One SGD-with-momentum step in place on `p` and `buf`. @example `sgdReferenceStep(p, g, buf, 0.1, { momentum: 0.9 })` */
export function sgdReferenceStep(p: Float64Array, g: ArrayLike<number>, buf: Float64Array, lr: number, c: SgdConfig = {}): void {
  const [mu, wd] = [c.momentum ?? 0, c.weightDecay ?? 0];
  for (let i = 0; i < p.length; i++) {
    const gi = g[i]! + wd * p[i]!;
    buf[i] = mu * buf[i]! + gi;
    const dir = mu === 0 ? gi : c.nesterov ? gi + mu * buf[i]! : buf[i]!;
    p[i] = p[i]! - lr * dir;
  }
}

/** Clip gradients in place by global norm; returns the norm before clipping. @example `clipReference([g1, g2], 1)` */
export function clipReference(grads: readonly HostBuffer[], maxNorm: number): number {
  let sumSq = 0;
  for (const g of grads) for (let i = 0; i < g.length; i++) sumSq += g[i]! * g[i]!;
  const norm = Math.sqrt(sumSq);
  const scale = Math.min(1, maxNorm / (norm + 1e-6));
  for (const g of grads) for (let i = 0; i < g.length; i++) g[i] = g[i]! * scale;
  return norm;
}
