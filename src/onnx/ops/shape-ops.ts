/** Ops that move data without arithmetic (reshape, transpose, slicing, concatenation…) and their gradients. */
import type { GradRules } from '../autodiff/types.js';
import { unbroadcast } from '../autodiff/unbroadcast.js';
import { ShapeError } from '../graph/errors.js';
import { attrInt, attrInts } from '../graph/node.js';
import { fmtShape, isStatic, normalizeAxis, numElements, type Dim, type Shape } from '../graph/shape.js';
import type { Tensor } from '../graph/tensor.js';

/** The runtime shape of `x` as an int64 vector (a constant when the shape is static). */
export function shapeOf(x: Tensor): Tensor {
  if (isStatic(x.shape)) return x.graph.int64s(x.shape);
  return x.graph.apply('Shape', [x], {}, [{ dtype: 'int64', shape: [x.rank] }], { noGrad: true })[0]!;
}

/**
 * Reshape with ONNX semantics: `0` copies the input dim at that position, `-1` is inferred.
 *
 * @example
 * ```ts
 * reshape(x /* ['B', 'T', 256] *\/, [0, 0, 8, 32]); // ['B', 'T', 8, 32]
 * ```
 */
export function reshape(x: Tensor, target: readonly number[]): Tensor {
  const shape: Dim[] = target.map((d, i) => {
    if (d === 0) {
      const src = x.shape[i];
      if (src === undefined) throw new ShapeError('Reshape', `0 at position ${i} but the input ${fmtShape(x.shape)} has no such axis`);
      return src;
    }
    return d;
  });
  const infer = shape.indexOf(-1);
  if (infer >= 0) {
    const total = numElements(x.shape);
    const known = numElements(shape.filter((_, i) => i !== infer));
    shape[infer] = total !== undefined && known !== undefined ? total / known : x.graph.freshDim('reshape');
  }
  const total = numElements(x.shape);
  const out = numElements(shape);
  if (total !== undefined && out !== undefined && total !== out) {
    throw new ShapeError('Reshape', `cannot reshape ${fmtShape(x.shape)} (${total} elements) to ${fmtShape(target)} (${out})`);
  }
  return reshapeTo(x, x.graph.int64s(target), shape);
}

/** Reshape to a runtime shape tensor; `shape` is the statically known result. */
export function reshapeTo(x: Tensor, shapeTensor: Tensor, shape: Shape, opts: { allowZero?: boolean } = {}): Tensor {
  // allowzero = 1: a 0 in the shape is a zero-sized axis, not "copy this axis" (what a shape read
  // from a tensor with an empty axis means).
  return x.graph.apply('Reshape', [x, shapeTensor], opts.allowZero ? { allowzero: attrInt(1) } : {}, [{ dtype: x.dtype, shape }])[0]!;
}

/** Permute axes (reverse them when `perm` is omitted). @example `transpose(q, [0, 2, 1, 3])` */
export function transpose(x: Tensor, perm?: readonly number[]): Tensor {
  const p = perm ?? x.shape.map((_, i) => x.rank - 1 - i);
  if (p.length !== x.rank || [...p].sort((a, b) => a - b).some((v, i) => v !== i)) {
    throw new ShapeError('Transpose', `perm [${p.join(', ')}] is not a permutation of ${x.rank} axes`);
  }
  return x.graph.apply('Transpose', [x], { perm: attrInts(p) }, [{ dtype: x.dtype, shape: p.map((i) => x.shape[i]!) }])[0]!;
}

/** Insert size-1 axes at `axes` (positions in the output). @example `unsqueeze(mask, [1])` */
export function unsqueeze(x: Tensor, axes: readonly number[]): Tensor {
  const rank = x.rank + axes.length;
  const ax = axes.map((a) => normalizeAxis('Unsqueeze', a, rank));
  const shape: Dim[] = [];
  let j = 0;
  for (let i = 0; i < rank; i++) shape.push(ax.includes(i) ? 1 : x.shape[j++]!);
  return x.graph.apply('Unsqueeze', [x, x.graph.int64s(ax)], {}, [{ dtype: x.dtype, shape }])[0]!;
}

/** Remove size-1 axes. @example `squeeze(x, [0])` */
export function squeeze(x: Tensor, axes: readonly number[]): Tensor {
  const ax = axes.map((a) => normalizeAxis('Squeeze', a, x.rank));
  for (const a of ax) {
    const d = x.shape[a];
    if (typeof d === 'number' && d !== 1) throw new ShapeError('Squeeze', `axis ${a} of ${fmtShape(x.shape)} has size ${d}, not 1`);
  }
  const shape = x.shape.filter((_, i) => !ax.includes(i));
  return x.graph.apply('Squeeze', [x, x.graph.int64s(ax)], {}, [{ dtype: x.dtype, shape }])[0]!;
}

/** Join tensors along `axis`. @example `concat([pastK, k], 2)` */
export function concat(xs: readonly Tensor[], axis: number): Tensor {
  const first = xs[0];
  if (!first) throw new ShapeError('Concat', 'needs at least one input');
  const a = normalizeAxis('Concat', axis, first.rank);
  let size: Dim = 0;
  for (const t of xs) {
    if (t.rank !== first.rank || t.dtype !== first.dtype) throw new ShapeError('Concat', `inputs differ in rank or dtype: ${xs.map((x) => `${x.dtype}${fmtShape(x.shape)}`).join(', ')}`);
    const d = t.shape[a]!;
    size = typeof size === 'number' && typeof d === 'number' ? size + d : first.graph.freshDim('concat');
  }
  const shape = first.shape.map((d, i) => (i === a ? size : d));
  return first.graph.apply('Concat', xs, { axis: attrInt(a) }, [{ dtype: first.dtype, shape }])[0]!;
}

/** Clamp a slice bound the way ONNX does, for a static dim. */
function clampBound(v: number, dim: number, step: number): number {
  const r = v < 0 ? v + dim : v;
  return step > 0 ? Math.min(Math.max(r, 0), dim) : Math.min(Math.max(r, -1), dim - 1);
}

/**
 * `x[starts:ends:steps]` along `axes` (bounds clamp like numpy).
 *
 * @example
 * ```ts
 * slice(x, [-1], [0], [half]); // first half of the last axis
 * ```
 */
export function slice(x: Tensor, axes: readonly number[], starts: readonly number[], ends: readonly number[], steps?: readonly number[]): Tensor {
  const st = steps ?? axes.map(() => 1);
  const ax = axes.map((a) => normalizeAxis('Slice', a, x.rank));
  const shape = [...x.shape];
  ax.forEach((a, i) => {
    const d = x.shape[a]!;
    const step = st[i]!;
    if (step === 0) throw new ShapeError('Slice', 'step 0');
    if (typeof d !== 'number') {
      shape[a] = x.graph.freshDim('slice');
      return;
    }
    const s = clampBound(starts[i]!, d, step);
    const e = clampBound(ends[i]!, d, step);
    shape[a] = Math.max(0, Math.ceil((e - s) / step));
  });
  const g = x.graph;
  return g.apply('Slice', [x, g.int64s(starts), g.int64s(ends), g.int64s(ax), g.int64s(st)], {}, [{ dtype: x.dtype, shape }])[0]!;
}

/** Swap the last two axes (a batched matrix transpose). @example `swapLastAxes(k) // [B, H, D, S] from [B, H, S, D]` */
export function swapLastAxes(t: Tensor): Tensor {
  const perm = t.shape.map((_, i) => i);
  perm[t.rank - 1] = t.rank - 2;
  perm[t.rank - 2] = t.rank - 1;
  return transpose(t, perm);
}

/**
 * Split along `axis` into pieces of the given sizes: numbers, or an int64 `[n]` tensor of sizes
 * known only at run time (then `count` pieces, of symbolic extent).
 *
 * @example
 * ```ts
 * const [a, b] = split(x, -1, [64, 64]);
 * const [head, rest] = split(keys, 2, ops.concat([n, ops.sub(total, n)], 0), 2);
 * ```
 */
export function split(x: Tensor, axis: number, sizes: readonly number[] | Tensor, count?: number): Tensor[] {
  const a = normalizeAxis('Split', axis, x.rank);
  if (!Array.isArray(sizes)) {
    const t = sizes as Tensor;
    const n = count ?? t.shape[0];
    if (typeof n !== 'number') throw new ShapeError('Split', 'with sizes given as a tensor, pass the number of pieces');
    const outs = Array.from({ length: n }, () => ({ dtype: x.dtype, shape: x.shape.map((v, i) => (i === a ? x.graph.freshDim('split') : v)) }));
    return x.graph.apply('Split', [x, t], { axis: attrInt(a) }, outs);
  }
  const list = sizes as readonly number[];
  const d = x.shape[a]!;
  const total = list.reduce((s, v) => s + v, 0);
  if (typeof d === 'number' && d !== total) throw new ShapeError('Split', `sizes [${list.join(', ')}] sum to ${total}, axis ${a} has ${d}`);
  const outs = list.map((n) => ({ dtype: x.dtype, shape: x.shape.map((v, i) => (i === a ? n : v)) }));
  return x.graph.apply('Split', [x, x.graph.int64s(list)], { axis: attrInt(a) }, outs);
}

/**
 * Split `x` along `axis` into pieces shaped like `likes` along that axis, sizes read at run time
 * from their shapes (what `split` cannot do when the sizes are not static).
 *
 * @example
 * ```ts
 * const [a, b] = splitLike(scores, -1, [pastKeys, newKeys]); // a KV cache of any length
 * ```
 */
export function splitLike(x: Tensor, axis: number, likes: readonly Tensor[]): Tensor[] {
  const a = normalizeAxis('Split', axis, x.rank);
  const la = likes.map((t) => normalizeAxis('Split', axis, t.rank));
  const extents = concat(likes.map((t, i) => slice(shapeOf(t), [0], [la[i]!], [la[i]! + 1])), 0);
  return x.graph.apply('Split', [x, extents], { axis: attrInt(a) }, likes.map((t, i) => ({ dtype: x.dtype, shape: x.shape.map((d, j) => (j === a ? t.shape[la[i]!]! : d)) })));
}

/**
 * Broadcast `x` to `shape` (numpy rules). With a runtime shape tensor, pass the known result shape.
 *
 * @example
 * ```ts
 * expand(bias, [4, 16]);
 * ```
 */
export function expand(x: Tensor, shape: readonly number[] | Tensor, resultShape?: Shape): Tensor {
  const g = x.graph;
  if (!('graph' in shape)) {
    const dims = shape;
    const rank = Math.max(dims.length, x.rank);
    const out: Dim[] = [];
    for (let i = 0; i < rank; i++) {
      const a = x.shape[x.rank - rank + i] ?? 1;
      const b = dims[dims.length - rank + i] ?? 1;
      if (typeof a === 'number' && a !== 1 && b !== 1 && a !== b) throw new ShapeError('Expand', `cannot expand ${fmtShape(x.shape)} to ${fmtShape(dims)}`);
      out.push(b === 1 ? a : b);
    }
    return g.apply('Expand', [x, g.int64s(dims)], {}, [{ dtype: x.dtype, shape: out }])[0]!;
  }
  const known = resultShape ?? Array.from({ length: Math.max(x.rank, Number(shape.shape[0] ?? 0)) }, () => g.freshDim('expand'));
  return g.apply('Expand', [x, shape], {}, [{ dtype: x.dtype, shape: known }])[0]!;
}

/** Zeros with the shape and dtype of `like`. @example `zerosLike(w)` */
export function zerosLike(like: Tensor): Tensor {
  return expand(like.graph.scalar(0, like.dtype), shapeOf(like), like.shape);
}

/**
 * Keep the lower (or upper) triangle of the last two axes, offset by diagonal `k` (a number or a
 * run-time int64 scalar). @example `trilu(ones, false)`
 */
export function trilu(x: Tensor, upper: boolean, k: number | Tensor = 0): Tensor {
  if (x.rank < 2) throw new ShapeError('Trilu', `needs rank ≥ 2, got ${fmtShape(x.shape)}`);
  const kt = typeof k === 'number' ? x.graph.constant('int64', [k], []) : k;
  return x.graph.apply('Trilu', [x, kt], { upper: attrInt(upper ? 1 : 0) }, [{ dtype: x.dtype, shape: x.shape }])[0]!;
}

/** Pad amounts (begin and end per axis) that undo a unit-step Slice of a static input. */
function slicePads(x: Tensor, node: { inputs: readonly (Tensor | undefined)[] }): number[] {
  const g = x.graph;
  const read = (t: Tensor | undefined): number[] => (t ? g.constantInts(t) : undefined) ?? [];
  const [starts, ends, axes, steps] = [read(node.inputs[1]), read(node.inputs[2]), read(node.inputs[3]), read(node.inputs[4])];
  const pads = new Array<number>(2 * x.rank).fill(0);
  axes.forEach((a, i) => {
    const d = x.shape[a];
    if (typeof d !== 'number' || (steps[i] ?? 1) !== 1) {
      throw new ShapeError('Slice', `gradient needs a static dim and step 1 on axis ${a} of ${fmtShape(x.shape)}`);
    }
    const s = clampBound(starts[i]!, d, 1);
    const e = Math.max(s, clampBound(ends[i]!, d, 1));
    pads[a] = s;
    pads[x.rank + a] = d - e;
  });
  return pads;
}

/** Gradient rules of this file's ops. */
export const shapeGrads: GradRules = {
  Reshape: ({ x: [x], dy: [dy] }) => [reshapeTo(dy!, shapeOf(x!), x!.shape, { allowZero: true }), undefined],
  Unsqueeze: ({ x: [x], dy: [dy] }) => [reshapeTo(dy!, shapeOf(x!), x!.shape, { allowZero: true }), undefined],
  Squeeze: ({ x: [x], dy: [dy] }) => [reshapeTo(dy!, shapeOf(x!), x!.shape, { allowZero: true }), undefined],
  Transpose: ({ node, dy: [dy] }) => {
    const perm = node.attrs['perm']!.value as readonly number[];
    const inv = perm.map((_, i) => perm.indexOf(i));
    return [transpose(dy!, inv)];
  },
  Concat: ({ node, x, dy: [dy] }) => {
    const axis = node.attrs['axis']!.value as number;
    const sizes = x.map((t) => t!.shape[axis]!);
    if (sizes.every((s): s is number => typeof s === 'number')) return split(dy!, axis, sizes);
    // Runtime sizes (e.g. a KV cache of any length): each input's extent along the axis, read from its shape.
    return splitLike(dy!, axis, x.map((t) => t!));
  },
  Split: ({ node, y, dy }) => {
    const axis = node.attrs['axis']!.value as number;
    return [concat(y.map((t, i) => dy[i] ?? zerosLike(t)), axis), undefined];
  },
  Slice: ({ node, x: [x], dy: [dy] }) => {
    const g = x!.graph;
    const padded = g.apply('Pad', [dy!, g.int64s(slicePads(x!, node)), g.scalar(0, dy!.dtype)], {}, [{ dtype: dy!.dtype, shape: x!.shape }]);
    return [padded[0]!];
  },
  Expand: ({ x: [x], dy: [dy] }) => [unbroadcast(dy!, x!), undefined],
  Trilu: ({ node, x: [, k], dy: [dy] }) => [dy!.graph.apply('Trilu', [dy!, k], node.attrs, [{ dtype: dy!.dtype, shape: dy!.shape }])[0]!, undefined],
};
