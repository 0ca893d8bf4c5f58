/**
 * The optimizer contract between the trainer and a policy backend. The backend owns the
 * optimizer because it owns the parameters: the ONNX policy keeps parameters, AdamW moments and
 * gradient accumulators resident in its runtime (on the GPU, on a GPU provider) and runs
 * clipping and the update there, so the trainer only says when to start accumulating, when to
 * step and at what learning rate, and moves state to and from checkpoints.
 */

/** AdamW hyper-parameters (the learning rate is passed per step, so schedules stay outside). */
export interface AdamWOptions {
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
}

/** Serializable optimizer state (what checkpoints store): moments per parameter name and the step count. */
export interface AdamWState {
  step: number;
  m: Map<string, Float32Array>;
  v: Map<string, Float32Array>;
}

/** What one optimizer step did. */
export interface OptimizerStepReport {
  /** Global L2 norm of the accumulated gradients before clipping (NaN when one is not finite). */
  gradNorm: number;
  /** Parameters whose gradient holds NaN/Inf; when non-empty the update was skipped. */
  nonFinite: string[];
}

/**
 * AdamW over a policy's trained parameters, made by `TrainablePolicy.createOptimizer`. The
 * policy's `backward` adds gradients to this optimizer's accumulators; `step` clips them by
 * global norm, skips the update when one is not finite, applies AdamW with decoupled weight
 * decay θ ← θ − lr·(m̂ / (√v̂ + ε) + λ·θ), and zeroes the accumulators.
 *
 * @example
 * ```ts
 * const optimizer = await policy.createOptimizer({ beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 });
 * optimizer.zeroGrad();
 * await policy.backward(sequences, weights);
 * const { gradNorm, nonFinite } = await optimizer.step(1e-4, 1.0);
 * ```
 */
export interface PolicyOptimizer {
  /** Updates applied so far (skipped steps do not count). */
  readonly stepCount: number;
  /** Discards accumulated gradients. */
  zeroGrad(): void;
  /** Clip to `maxGradNorm` (≤ 0: no clipping), update at learning rate `lr`, zero the accumulators. */
  step(lr: number, maxGradNorm: number): Promise<OptimizerStepReport>;
  /** Host copies of the moments and step count. */
  exportState(): Promise<AdamWState>;
  /** Restores a state from {@link exportState}; throws when a parameter's moments are missing or mis-sized. */
  importState(state: AdamWState): void;
}
