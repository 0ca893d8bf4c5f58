/**
 * Reverse-mode automatic differentiation over a {@link Graph}: the backward pass is appended to
 * the same graph as standard ONNX ops, so one session computes loss and gradients together.
 *
 * Saved activations, not recomputation: backward rules read forward tensors directly; the
 * onnxruntime memory planner frees each one after its last (backward) use. This is the fastest
 * choice and, at the sizes the trainer runs, the activations fit; `checkpoint` style
 * recomputation would duplicate forward nodes and is left to callers (rebuild a segment).
 */
import { isFloatDType } from '../dtype.js';
import { GraphError } from '../graph/errors.js';
import type { Node } from '../graph/node.js';
import type { Tensor } from '../graph/tensor.js';
import { add } from '../ops/elementwise.js';
import { expand, zerosLike } from '../ops/shape-ops.js';
import { nodeGradient } from './custom.js';
import { GRAD_RULES, NON_DIFFERENTIABLE } from './rules.js';

/** Options of {@link grad}. */
export interface GradOptions {
  /** Gradient of the final output w.r.t. `loss` (default: ones, for a scalar loss). */
  readonly seed?: Tensor;
}

/**
 * Gradients of `loss` with respect to each of `params`, as new tensors in the same graph.
 * A parameter that does not influence the loss gets zeros.
 *
 * @example
 * ```ts
 * const g = new Graph();
 * const w = g.input('w', 'float32', [3]);
 * const loss = w.mul(w).sum();
 * const grads = grad(loss, [w]);
 * g.output(grads.get(w)!, 'dw'); // 2w
 * ```
 */
export function grad(loss: Tensor, params: readonly Tensor[], opts: GradOptions = {}): Map<Tensor, Tensor> {
  const g = loss.graph;
  if (!opts.seed && loss.rank !== 0) {
    throw new GraphError(`grad: loss ${loss.name} has shape [${loss.shape.join(', ')}]; reduce it to a scalar or pass a seed`);
  }
  for (const p of params) {
    if (p.graph !== g) throw new GraphError(`grad: parameter ${p.name} belongs to another graph`);
    if (!isFloatDType(p.dtype)) throw new GraphError(`grad: parameter ${p.name} has non-float dtype ${p.dtype}`);
  }
  const { nodes: onPath, needsGrad } = nodesBetween(params, loss);
  const pending = new Map<Tensor, Tensor[]>();
  const contribute = (t: Tensor, d: Tensor): void => {
    const list = pending.get(t);
    if (list) list.push(d);
    else pending.set(t, [d]);
  };
  // Fan-out: a tensor used several times receives one contribution per use, summed once here.
  const total = (t: Tensor): Tensor | undefined => {
    const list = pending.get(t);
    if (!list || list.length === 0) return undefined;
    const sum = list.reduce((acc, d) => add(acc, d));
    pending.set(t, [sum]);
    return sum;
  };
  contribute(loss, opts.seed ?? expand(g.scalar(1, loss.dtype), [], loss.shape));

  for (let i = onPath.length - 1; i >= 0; i--) {
    const node = onPath[i]!;
    const dy = node.outputs.map(total);
    if (dy.every((d) => d === undefined)) continue;
    const rule = nodeGradient(node) ?? GRAD_RULES[node.opType];
    if (!rule) {
      throw new GraphError(`grad: no gradient rule for ${node.opType} (producing ${node.outputs[0]?.name}); wrap constant inputs in stopGradient`);
    }
    const wants = node.inputs.map((t) => t !== undefined && needsGrad.has(t));
    const gradOf = (t: Tensor): Tensor | undefined => {
      if (!t.producer || t.producer.id <= node.id) throw new GraphError(`grad: gradOf(${t.name}) asked while differentiating ${node.opType}; only tensors computed after the node have a complete gradient then`);
      return total(t);
    };
    const addGradient = (t: Tensor, d: () => Tensor): void => {
      if (t.producer && t.producer.id >= node.id) throw new GraphError(`grad: addGradient(${t.name}) while differentiating ${node.opType}; only tensors computed before the node can still receive gradient`);
      if (needsGrad.has(t)) contribute(t, d());
    };
    const dx = rule({ node, x: node.inputs, y: node.outputs, dy, wants, gradOf, addGradient });
    node.inputs.forEach((t, k) => {
      const d = dx[k];
      if (t && d && wants[k]) contribute(t, d);
    });
  }

  const out = new Map<Tensor, Tensor>();
  for (const p of params) out.set(p, total(p) ?? zerosLike(p));
  return out;
}

/**
 * The nodes on some path from a param to `loss` (topological order), and the tensors on those
 * paths (which need gradients). Paths stop at `noGrad` nodes and non-differentiable ops.
 */
function nodesBetween(params: readonly Tensor[], loss: Tensor): { nodes: Node[]; needsGrad: Set<Tensor> } {
  const fromParams = new Set<Tensor>(params);
  const forward: Node[] = [];
  for (const node of loss.graph.nodes) {
    if (node.noGrad || NON_DIFFERENTIABLE.has(node.opType)) continue;
    if (!node.inputs.some((t) => t !== undefined && fromParams.has(t))) continue;
    forward.push(node);
    for (const o of node.outputs) if (isFloatDType(o.dtype)) fromParams.add(o);
  }
  const toLoss = new Set<Tensor>([loss]);
  const nodes: Node[] = [];
  for (let i = forward.length - 1; i >= 0; i--) {
    const node = forward[i]!;
    if (!node.outputs.some((o) => toLoss.has(o))) continue;
    nodes.push(node);
    for (const t of node.inputs) if (t && fromParams.has(t)) toLoss.add(t);
  }
  nodes.reverse();
  const needsGrad = new Set([...toLoss].filter((t) => fromParams.has(t)));
  return { nodes, needsGrad };
}

/**
 * The same values as `x`, but a constant for autodiff (no gradient flows through it).
 *
 * @example
 * ```ts
 * const target = stopGradient(teacherLogits);
 * ```
 */
export function stopGradient(x: Tensor): Tensor {
  return x.graph.apply('Identity', [x], {}, [{ dtype: x.dtype, shape: x.shape }], { noGrad: true })[0]!;
}
