/**
 * AdamW (Loshchilov & Hutter) over float32 host buffers, with its state exposed for checkpoints.
 */
import { adamwReferenceStep } from '../../onnx/optim/reference.js';
import type { TrainableParameter } from '../policy/trainable-policy.js';

/** AdamW hyper-parameters (the learning rate is passed per step, so schedules stay outside). */
export interface AdamWOptions {
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
}

/** Serializable optimizer state: first and second moments per parameter name, and the step count. */
export interface AdamWState {
  step: number;
  m: Map<string, Float32Array>;
  v: Map<string, Float32Array>;
}

/**
 * AdamW with decoupled weight decay: θ ← θ − lr·(m̂ / (√v̂ + ε) + λ·θ).
 *
 * @example
 * ```ts
 * const opt = new AdamW(policy.parameters(), { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 });
 * opt.step(1e-3); // uses and keeps each parameter's .grad
 * ```
 */
export class AdamW {
  private readonly state: AdamWState;

  constructor(
    private readonly params: readonly TrainableParameter[],
    readonly options: AdamWOptions,
  ) {
    this.state = {
      step: 0,
      m: new Map(params.map((p) => [p.name, new Float32Array(p.value.length)])),
      v: new Map(params.map((p) => [p.name, new Float32Array(p.value.length)])),
    };
  }

  /** Optimizer steps taken so far. */
  get stepCount(): number {
    return this.state.step;
  }

  /** Applies one update with learning rate `lr` from the parameters' current gradients. */
  step(lr: number): void {
    this.state.step++;
    for (const p of this.params) {
      adamwReferenceStep(p.value, p.grad, this.state.m.get(p.name)!, this.state.v.get(p.name)!, this.state.step, lr, this.options);
    }
  }

  /** The state (live buffers; copy before mutating). */
  exportState(): AdamWState {
    return this.state;
  }

  /** Restores a state saved by {@link exportState}; throws when a parameter's moments are missing or mis-sized. */
  importState(state: AdamWState): void {
    for (const p of this.params) {
      const m = state.m.get(p.name);
      const v = state.v.get(p.name);
      if (!m || !v || m.length !== p.value.length || v.length !== p.value.length) {
        throw new Error(`optimizer state for "${p.name}" is missing or has the wrong size: was the checkpoint written for another model?`);
      }
      this.state.m.get(p.name)!.set(m);
      this.state.v.get(p.name)!.set(v);
    }
    this.state.step = state.step;
  }
}

/**
 * Sets every parameter's gradient to zero.
 *
 * @example
 * ```ts
 * zeroGradients(policy.parameters());
 * ```
 */
export function zeroGradients(params: readonly TrainableParameter[]): void {
  for (const p of params) p.grad.fill(0);
}
