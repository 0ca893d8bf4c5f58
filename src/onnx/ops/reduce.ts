/** Reductions over axes (opset 18 form: axes as an input) and their gradient rules. */
import type { GradRules } from '../autodiff/types.js';
import { attrInt } from '../graph/node.js';
import { normalizeAxis, numElements, type Dim } from '../graph/shape.js';
import type { Tensor } from '../graph/tensor.js';
import { cast, div, equal, mul } from './elementwise.js';
import { expand, shapeOf, unsqueeze } from './shape-ops.js';

function reduce(op: string, x: Tensor, axes: readonly number[] | undefined, keepdims: boolean): Tensor {
  const all = x.shape.map((_, i) => i);
  const ax = (axes ?? all).map((a) => normalizeAxis(op, a, x.rank));
  const shape: Dim[] = [];
  x.shape.forEach((d, i) => {
    if (!ax.includes(i)) shape.push(d);
    else if (keepdims) shape.push(1);
  });
  const g = x.graph;
  return g.apply(op, [x, g.int64s(ax)], { keepdims: attrInt(keepdims ? 1 : 0) }, [{ dtype: x.dtype, shape }])[0]!;
}

/** Sum over `axes` (all axes when omitted). @example `reduceSum(x, [-1], true)` */
export const reduceSum = (x: Tensor, axes?: readonly number[], keepdims = false): Tensor => reduce('ReduceSum', x, axes, keepdims);
/** Mean over `axes`. @example `reduceMean(x.mul(x), [-1], true)` */
export const reduceMean = (x: Tensor, axes?: readonly number[], keepdims = false): Tensor => reduce('ReduceMean', x, axes, keepdims);
/**
 * Σ x² over `axes` in one pass (no gradient rule: for norms outside differentiated code, e.g.
 * gradient clipping). @example `reduceSumSquare(grad)`
 */
export const reduceSumSquare = (x: Tensor, axes?: readonly number[], keepdims = false): Tensor => reduce('ReduceSumSquare', x, axes, keepdims);
/** Maximum over `axes`. @example `reduceMax(logits, [-1], true)` */
export const reduceMax = (x: Tensor, axes?: readonly number[], keepdims = false): Tensor => reduce('ReduceMax', x, axes, keepdims);

/**
 * Running sum along `axis` (no gradient rule: for sampling inside a graph). onnxruntime's WebGPU
 * kernel sums every prefix anew, O(n²) along the axis: keep that axis short there.
 *
 * @example
 * cumSum(blockSums, 1); // [B, R]
 */
export function cumSum(x: Tensor, axis: number): Tensor {
  const g = x.graph;
  const a = normalizeAxis('CumSum', axis, x.rank);
  return g.apply('CumSum', [x, g.constant('int64', [a], [])], {}, [{ dtype: x.dtype, shape: x.shape }], { noGrad: true })[0]!;
}

/** The reduced axes of a reduce node, normalised. */
function reducedAxes(x: Tensor, axesConst: Tensor): number[] {
  return (x.graph.constantInts(axesConst) ?? []).map((v) => normalizeAxis('Reduce', v, x.rank));
}

/** Broadcast a reduced gradient back over the input's shape. */
function spread(x: Tensor, axesConst: Tensor, keepdims: boolean, dy: Tensor): Tensor {
  const kept = keepdims ? dy : unsqueeze(dy, reducedAxes(x, axesConst));
  return expand(kept, shapeOf(x), x.shape);
}

/** Elements reduced into each output element, as a scalar of x's dtype. */
function countOf(x: Tensor, y: Tensor): Tensor | number {
  const nx = numElements(x.shape);
  const ny = numElements(y.shape);
  if (nx !== undefined && ny !== undefined) return nx / Math.max(ny, 1);
  const g = x.graph;
  const size = (t: Tensor): Tensor => cast(g.apply('Size', [t], {}, [{ dtype: 'int64', shape: [] }], { noGrad: true })[0]!, x.dtype);
  return div(size(x), size(y));
}

const keep = (attrs: { keepdims?: { value: unknown } }): boolean => attrs.keepdims?.value !== 0;

/** Gradient rules of this file's ops. */
export const reduceGrads: GradRules = {
  ReduceSum: ({ node, x: [x, axes], dy: [dy] }) => [spread(x!, axes!, keep(node.attrs), dy!), undefined],
  // Divided before it is spread: the division runs over the reduced shape, not the input's.
  ReduceMean: ({ node, x: [x, axes], y: [y], dy: [dy] }) => [spread(x!, axes!, keep(node.attrs), div(dy!, countOf(x!, y!))), undefined],
  ReduceMax: ({ node, x: [x, axes], y: [y], dy: [dy] }) => {
    // Ties share the gradient equally, matching the subgradient PyTorch uses for amax.
    const yk = keep(node.attrs) ? y! : unsqueeze(y!, reducedAxes(x!, axes!));
    const hit = cast(equal(x!, yk), x!.dtype);
    const count = reduceSum(hit, reducedAxes(x!, axes!), true);
    return [mul(spread(x!, axes!, keep(node.attrs), dy!), div(hit, count)), undefined];
  },
};
