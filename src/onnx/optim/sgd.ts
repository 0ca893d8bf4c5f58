/** Stochastic gradient descent with momentum (PyTorch semantics). */
import { add, mul, sub } from '../ops/elementwise.js';
import type { Optimizer, UpdateInputs, UpdateOutputs } from './optimizer.js';

/** Hyper-parameters of {@link sgd}. */
export interface SgdConfig {
  readonly momentum?: number;
  /** L2 penalty added to the gradient (coupled, as in torch.optim.SGD). */
  readonly weightDecay?: number;
  readonly nesterov?: boolean;
}

/**
 * `g ← g + wd·p`; `b ← μ·b + g`; `p ← p − lr·(nesterov ? g + μ·b : b)`. The first step's
 * buffer equals `g` because it starts at zero.
 *
 * @example
 * ```ts
 * const opt = sgd({ momentum: 0.9 });
 * ```
 */
export function sgd(config: SgdConfig = {}): Optimizer {
  const mu = config.momentum ?? 0;
  const wd = config.weightDecay ?? 0;
  return {
    name: `SGD(momentum=${mu}, wd=${wd}${config.nesterov ? ', nesterov' : ''})`,
    stateNames: mu === 0 ? [] : ['momentum'],
    update({ param, grad, state: [buf], lr }: UpdateInputs): UpdateOutputs {
      const g = wd === 0 ? grad : add(grad, mul(param, wd));
      if (mu === 0) return { param: sub(param, mul(lr, g)), state: [] };
      const b2 = add(mul(buf!, mu), g);
      const dir = config.nesterov ? add(g, mul(b2, mu)) : b2;
      return { param: sub(param, mul(lr, dir)), state: [b2] };
    },
  };
}
