/** The interface optimizers implement: an update rule emitted as graph ops, per parameter. */
import type { Tensor } from '../graph/tensor.js';

/** What an update rule sees for one parameter. */
export interface UpdateInputs {
  /** Current parameter value. */
  readonly param: Tensor;
  /** Its gradient (already clipped, if clipping is on). */
  readonly grad: Tensor;
  /** Optimizer state tensors, in the order of {@link Optimizer.stateNames}. */
  readonly state: readonly Tensor[];
  /** 1-based step number, a float scalar of the parameter's dtype. */
  readonly step: Tensor;
  /** Learning rate, a float scalar (a runtime input, so schedules need no recompilation). */
  readonly lr: Tensor;
}

/** The new parameter and state values. */
export interface UpdateOutputs {
  readonly param: Tensor;
  readonly state: readonly Tensor[];
}

/**
 * An optimizer as a graph transformation. State tensors have the parameter's shape and start at zero.
 *
 * @example
 * ```ts
 * const opt = adamw({ weightDecay: 0.1 });
 * const { param, state } = opt.update({ param: w, grad: dw, state: [m, v], step, lr });
 * ```
 */
export interface Optimizer {
  /** Human-readable name with hyper-parameters. */
  readonly name: string;
  /** Names of per-parameter state tensors (e.g. `['m', 'v']`). */
  readonly stateNames: readonly string[];
  /** Emit the update for one parameter. */
  update(inputs: UpdateInputs): UpdateOutputs;
}
