import { TrainError } from '../train-error.js';

/**
 * Per-token KL estimators between the policy and a reference (Schulman's k1/k2/k3), evaluated on
 * tokens sampled from the policy, with Δ = log π_θ(token) − log π_ref(token).
 */

/** Which KL estimator to use; `k3` is unbiased and never negative, the usual choice for GRPO. */
export type KlEstimator = 'k1' | 'k2' | 'k3';

/**
 * The KL estimate for one token and its derivative with respect to log π_θ.
 *
 * - k1 = Δ (unbiased, can be negative)
 * - k2 = Δ² / 2 (biased, low variance)
 * - k3 = e^(−Δ) + Δ − 1 (unbiased, ≥ 0)
 *
 * @example
 * ```ts
 * klEstimate(Math.log(0.5) - Math.log(0.25), 'k3'); // { value: 0.5 + ln 2 - 1, grad: 0.5 }
 * ```
 */
export function klEstimate(delta: number, estimator: KlEstimator): { value: number; grad: number } {
  switch (estimator) {
    case 'k1':
      return { value: delta, grad: 1 };
    case 'k2':
      return { value: (delta * delta) / 2, grad: delta };
    case 'k3': {
      const e = Math.exp(-delta);
      return { value: e + delta - 1, grad: 1 - e };
    }
    default: {
      const never: never = estimator;
      throw new TrainError(`unknown KL estimator ${String(never)}`);
    }
  }
}
