/** The contract between the autodiff engine and per-op gradient rules. */
import type { Node } from '../graph/node.js';
import type { Tensor } from '../graph/tensor.js';

/** What a gradient rule sees for one node. */
export interface GradContext {
  readonly node: Node;
  /** The forward inputs (undefined where an optional input was omitted). */
  readonly x: readonly (Tensor | undefined)[];
  /** The forward outputs. */
  readonly y: readonly Tensor[];
  /** Gradient of the loss w.r.t. each output; undefined where that output does not reach the loss. */
  readonly dy: readonly (Tensor | undefined)[];
  /** Which inputs need a gradient (rules may skip the others). */
  readonly wants: readonly boolean[];
  /**
   * The complete gradient of a tensor produced after this node (every use of it is already
   * differentiated when this node's turn comes), or undefined where it does not reach the loss.
   * Per-node rules use it for identities that involve later tensors (see `setNodeGradient`).
   */
  readonly gradOf: (t: Tensor) => Tensor | undefined;
  /**
   * Add `d()` to the gradient of `t`, a tensor computed before this node (`d` is not called where
   * `t` needs no gradient). A per-node rule for the last node of a composite uses it to hand the composite's
   * gradient straight to the composite's input; the nodes in between then receive nothing from
   * this path and emit nothing for it.
   */
  readonly addGradient: (t: Tensor, d: () => Tensor) => void;
}

/**
 * A vector-Jacobian product: given the output gradients, the gradient of each input
 * (undefined for non-differentiable inputs such as indices, shapes or masks).
 */
export type GradRule = (ctx: GradContext) => (Tensor | undefined)[];

/** Gradient rules by ONNX op type. */
export type GradRules = Readonly<Record<string, GradRule>>;
