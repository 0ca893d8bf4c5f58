/**
 * Per-node gradient rules: a layer that knows more about a node than its op type does (what its
 * output feeds, which identities hold there) can give that node a cheaper exact rule. The graph
 * stays plain ONNX; only the backward pass that `grad` emits differs.
 */
import { GraphError } from '../graph/errors.js';
import type { Node } from '../graph/node.js';
import type { Tensor } from '../graph/tensor.js';
import type { GradRule } from './types.js';

const rules = new WeakMap<Node, GradRule>();

/**
 * Differentiate the node that produced `t` with `rule` instead of its op type's rule. The rule
 * sees the usual {@link GradContext}, including `gradOf` for tensors computed after the node.
 *
 * @example
 * ```ts
 * const p = softmax(scores, -1);
 * setNodeGradient(p, ({ y: [y], dy: [dy] }) => [mul(y!, sub(dy!, rowDot))]);
 * ```
 */
export function setNodeGradient(t: Tensor, rule: GradRule): void {
  if (!t.producer) throw new GraphError(`setNodeGradient: ${t.name} is an input or constant, not a node's output`);
  rules.set(t.producer, rule);
}

/** The rule set for `node` by {@link setNodeGradient}, if any. */
export function nodeGradient(node: Node): GradRule | undefined {
  return rules.get(node);
}
