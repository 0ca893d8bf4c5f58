/** Neural-network primitives with dedicated gradient rules: Softmax, LogSoftmax; SiLU as a composite. */
import { setNodeGradient } from '../autodiff/custom.js';
import type { GradRules } from '../autodiff/types.js';
import { attrInt } from '../graph/node.js';
import { normalizeAxis } from '../graph/shape.js';
import type { Tensor } from '../graph/tensor.js';
import { add, exp, mul, sigmoid, sub } from './elementwise.js';
import { FLOATS, expectDType } from './operand.js';
import { reduceSum } from './reduce.js';

function along(op: string, x: Tensor, axis: number): Tensor {
  expectDType(op, x, FLOATS);
  const a = normalizeAxis(op, axis, x.rank);
  return x.graph.apply(op, [x], { axis: attrInt(a) }, [{ dtype: x.dtype, shape: x.shape }])[0]!;
}

/** Softmax along `axis`. @example `softmax(scores, -1)` */
export const softmax = (x: Tensor, axis = -1): Tensor => along('Softmax', x, axis);
/** Log-softmax along `axis` (numerically stable). @example `logSoftmax(logits, -1)` */
export const logSoftmax = (x: Tensor, axis = -1): Tensor => along('LogSoftmax', x, axis);
/**
 * SiLU / swish, `x · sigmoid(x)`, as two standard ops. Its gradient is written for the pair:
 * `dy · (y + s·(1 − y))` with `s = sigmoid(x)`, `y = x·s` (equal to `s + x·s·(1 − s)`), four
 * elementwise passes where differentiating the two ops one by one takes six.
 *
 * @example
 * ```ts
 * const h = silu(gate);
 * ```
 */
export const silu = (x: Tensor): Tensor => {
  const s = sigmoid(x);
  const y = mul(x, s);
  setNodeGradient(y, ({ y: [out], dy: [d] }) => [mul(d!, add(out!, mul(s, sub(out!.graph.scalar(1, out!.dtype), out!)))), undefined]);
  return y;
};

/** Gradient rules of this file's ops. */
export const nnGrads: GradRules = {
  Softmax: ({ node, y: [y], dy: [dy] }) => {
    const axis = node.attrs['axis']!.value as number;
    return [mul(y!, sub(dy!, reduceSum(mul(dy!, y!), [axis], true)))];
  },
  LogSoftmax: ({ node, y: [y], dy: [dy] }) => {
    const axis = node.attrs['axis']!.value as number;
    return [sub(dy!, mul(exp(y!), reduceSum(dy!, [axis], true)))];
  },
};
