/** AdamW (Loshchilov & Hutter): Adam with bias correction and decoupled weight decay. */
import { add, div, mul, pow, sqrt, sub } from '../ops/elementwise.js';
import type { Optimizer, UpdateInputs, UpdateOutputs } from './optimizer.js';

/** Hyper-parameters of {@link adamw} (PyTorch defaults). */
export interface AdamWConfig {
  readonly beta1?: number;
  readonly beta2?: number;
  readonly eps?: number;
  readonly weightDecay?: number;
}

/**
 * AdamW, step t (1-based), as PyTorch computes it:
 * `p ← p·(1 − lr·wd)`; `m ← β1·m + (1−β1)·g`; `v ← β2·v + (1−β2)·g²`;
 * `p ← p − lr · (m / (1−β1^t)) / (sqrt(v / (1−β2^t)) + eps)`.
 *
 * @example
 * ```ts
 * const opt = adamw({ beta1: 0.9, beta2: 0.95, weightDecay: 0.1 });
 * ```
 */
export function adamw(config: AdamWConfig = {}): Optimizer {
  const b1 = config.beta1 ?? 0.9;
  const b2 = config.beta2 ?? 0.999;
  const eps = config.eps ?? 1e-8;
  const wd = config.weightDecay ?? 0.01;
  return {
    name: `AdamW(β1=${b1}, β2=${b2}, eps=${eps}, wd=${wd})`,
    stateNames: ['m', 'v'],
    update({ param, grad, state: [m, v], step, lr }: UpdateInputs): UpdateOutputs {
      const g = param.graph;
      const one = g.scalar(1, param.dtype);
      const decayed = wd === 0 ? param : mul(param, sub(one, mul(lr, wd)));
      const m2 = add(mul(m!, b1), mul(grad, 1 - b1));
      const v2 = add(mul(v!, b2), mul(mul(grad, grad), 1 - b2));
      const c1 = sub(one, pow(g.scalar(b1, param.dtype), step));
      const c2 = sub(one, pow(g.scalar(b2, param.dtype), step));
      const denom = add(sqrt(div(v2, c2)), eps);
      // lr / (1 − β1^t) is a scalar: one pass over m instead of two.
      const p2 = sub(decayed, div(mul(m2, div(lr, c1)), denom));
      return { param: p2, state: [m2, v2] };
    },
  };
}

