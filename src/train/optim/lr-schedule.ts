/** Learning-rate schedules with linear warm-up. */

/** Shape of the schedule after warm-up. */
export type LrDecay = 'constant' | 'linear' | 'cosine';

/** Options of {@link learningRateAt}. */
export interface LrScheduleOptions {
  /** Peak learning rate reached at the end of warm-up. */
  lr: number;
  /** Optimizer steps of linear warm-up from 0 (default 0). */
  warmupSteps?: number;
  /** Total optimizer steps, needed by `linear` and `cosine` decay. */
  totalSteps?: number;
  /** Decay after warm-up (default `constant`). */
  decay?: LrDecay;
  /** Floor as a fraction of `lr` for the decays (default 0). */
  minRatio?: number;
}

/**
 * The learning rate for 0-based optimizer step `step`: linear warm-up over `warmupSteps`
 * (step 0 gets lr/warmupSteps, never 0, so the first update is not wasted), then the decay.
 *
 * @example
 * ```ts
 * learningRateAt(0, { lr: 1e-3, warmupSteps: 4 });                                      // 2.5e-4
 * learningRateAt(9, { lr: 1e-3, warmupSteps: 0, totalSteps: 10, decay: 'linear' });    // 1e-4
 * ```
 */
export function learningRateAt(step: number, options: LrScheduleOptions): number {
  const warmup = options.warmupSteps ?? 0;
  const decay = options.decay ?? 'constant';
  const floor = options.lr * (options.minRatio ?? 0);
  if (step < warmup) return (options.lr * (step + 1)) / warmup;
  if (decay === 'constant') return options.lr;
  const total = options.totalSteps;
  if (total === undefined || total <= warmup) return options.lr;
  const progress = Math.min(1, (step - warmup) / (total - warmup));
  const shape = decay === 'linear' ? 1 - progress : 0.5 * (1 + Math.cos(Math.PI * progress));
  return floor + (options.lr - floor) * shape;
}
