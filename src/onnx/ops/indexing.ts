/** Gathers and scatters (embedding lookups, picking target log-probs, cache updates) and their gradients. */
import type { GradRules } from '../autodiff/types.js';
import { ShapeError } from '../graph/errors.js';
import { attrInt, attrString, type Attrs } from '../graph/node.js';
import { fmtShape, normalizeAxis, type Dim } from '../graph/shape.js';
import type { Tensor } from '../graph/tensor.js';
import { add, cast, less, mul, where } from './elementwise.js';
import { reduceSum } from './reduce.js';
import { expectDType } from './operand.js';
import { concat, expand, reshape, reshapeTo, shapeOf, slice, transpose, zerosLike } from './shape-ops.js';

const INDEX = ['int64', 'int32'] as const;

/**
 * `data.take(indices, axis)`: output shape `data[:axis] + indices.shape + data[axis+1:]`.
 *
 * @example
 * ```ts
 * const emb = gather(wte /* [V, d] *\/, ids /* ['B', 'T'] *\/); // ['B', 'T', d]
 * ```
 */
export function gather(data: Tensor, indices: Tensor, axis = 0): Tensor {
  expectDType('Gather', indices, INDEX);
  const a = normalizeAxis('Gather', axis, data.rank);
  const shape = [...data.shape.slice(0, a), ...indices.shape, ...data.shape.slice(a + 1)];
  return data.graph.apply('Gather', [data, indices], { axis: attrInt(a) }, [{ dtype: data.dtype, shape }])[0]!;
}

/** Pick elements along `axis` at `indices` (same rank as data). @example `gatherElements(logp, targets1, -1)` */
export function gatherElements(data: Tensor, indices: Tensor, axis: number): Tensor {
  expectDType('GatherElements', indices, INDEX);
  if (indices.rank !== data.rank) throw new ShapeError('GatherElements', `indices ${fmtShape(indices.shape)} must have the rank of data ${fmtShape(data.shape)}`);
  const a = normalizeAxis('GatherElements', axis, data.rank);
  return data.graph.apply('GatherElements', [data, indices], { axis: attrInt(a) }, [{ dtype: data.dtype, shape: indices.shape }])[0]!;
}

/** Gather slices addressed by the last axis of `indices` (batch_dims 0). @example `gatherND(x, idx)` */
export function gatherND(data: Tensor, indices: Tensor): Tensor {
  expectDType('GatherND', indices, ['int64']);
  const k = indices.shape[indices.rank - 1];
  if (typeof k !== 'number') throw new ShapeError('GatherND', 'the last dim of indices must be static');
  const shape: Dim[] = [...indices.shape.slice(0, -1), ...data.shape.slice(k)];
  return data.graph.apply('GatherND', [data, indices], {}, [{ dtype: data.dtype, shape }])[0]!;
}

/** How a scatter combines an update with the existing value. */
export type ScatterReduction = 'none' | 'add';

function reductionAttrs(axis: number | undefined, reduction: ScatterReduction): Attrs {
  return { ...(axis === undefined ? {} : { axis: attrInt(axis) }), reduction: attrString(reduction) };
}

/** Write `updates` into a copy of `data` at element positions along `axis`. @example `scatterElements(x, idx, u, 1)` */
export function scatterElements(data: Tensor, indices: Tensor, updates: Tensor, axis: number, reduction: ScatterReduction = 'none'): Tensor {
  expectDType('ScatterElements', indices, INDEX);
  const a = normalizeAxis('ScatterElements', axis, data.rank);
  return data.graph.apply('ScatterElements', [data, indices, updates], reductionAttrs(a, reduction), [{ dtype: data.dtype, shape: data.shape }])[0]!;
}

/** Write `updates` into a copy of `data` at the slices addressed by `indices`. @example `scatterND(cache, pos, kv)` */
export function scatterND(data: Tensor, indices: Tensor, updates: Tensor, reduction: ScatterReduction = 'none'): Tensor {
  expectDType('ScatterND', indices, ['int64']);
  return data.graph.apply('ScatterND', [data, indices, updates], reductionAttrs(undefined, reduction), [{ dtype: data.dtype, shape: data.shape }])[0]!;
}

/** Index of the maximum along `axis` (not differentiable). @example `argMax(logits, -1)` */
export function argMax(x: Tensor, axis: number, keepdims = false): Tensor {
  const a = normalizeAxis('ArgMax', axis, x.rank);
  const shape = x.shape.flatMap((d, i) => (i !== a ? [d] : keepdims ? [1] : []));
  return x.graph.apply('ArgMax', [x], { axis: attrInt(a), keepdims: attrInt(keepdims ? 1 : 0) }, [{ dtype: 'int64', shape }], { noGrad: true })[0]!;
}

/** `[start, start+delta, …)` below `limit` as int64 or float (scalars as tensors allow runtime bounds). @example `range(g.scalar(0,'int64'), T, one)` */
export function range(start: Tensor, limit: Tensor, delta: Tensor): Tensor {
  const g = start.graph;
  const [s, l, d] = [start, limit, delta].map((t) => g.constantInts(t)?.[0]);
  const n = s !== undefined && l !== undefined && d !== undefined ? Math.max(0, Math.ceil((l - s) / d)) : g.freshDim('range');
  return g.apply('Range', [start, limit, delta], {}, [{ dtype: start.dtype, shape: [n] }], { noGrad: true })[0]!;
}

/** Gradient rules of this file's ops. */
export const indexingGrads: GradRules = {
  Gather: ({ node, x: [data, indices], dy: [dy] }) => {
    const a = node.attrs['axis']!.value as number;
    const q = indices!.rank;
    const r = data!.rank;
    const dyPerm = [...range0(a, a + q), ...range0(0, a), ...range0(a + q, q + r - 1)];
    const dataPerm = [a, ...range0(0, a), ...range0(a + 1, r)];
    const front = a === 0 ? data! : transpose(data!, dataPerm);
    const upd = a === 0 ? dy! : transpose(dy!, dyPerm);
    const summed = scatterAddRows(front, indices!, upd);
    const back = dataPerm.map((_, i) => dataPerm.indexOf(i));
    return [a === 0 ? summed : transpose(summed, back), undefined];
  },
  GatherElements: ({ node, x: [data, indices], dy: [dy] }) => [scatterElements(zerosLike(data!), indices!, dy!, node.attrs['axis']!.value as number, 'add'), undefined],
  GatherND: ({ x: [data, indices], dy: [dy] }) => [gatherNDGradient(data!, indices!, dy!), undefined],
  ScatterElements: ({ node, x: [, indices, updates], dy: [dy] }) => {
    const axis = node.attrs['axis']!.value as number;
    const overwrite = node.attrs['reduction']?.value !== 'add';
    return [overwrite ? scatterElements(dy!, indices!, zerosLike(updates!), axis) : dy, undefined, gatherElements(dy!, indices!, axis)];
  },
  ScatterND: ({ node, x: [, indices, updates], dy: [dy] }) => {
    const overwrite = node.attrs['reduction']?.value !== 'add';
    return [overwrite ? scatterND(dy!, indices!, zerosLike(updates!)) : dy, undefined, gatherND(dy!, indices!)];
  },
};

/**
 * `zeros(front)` with each row of `rows` added at row `ids[i]` of axis 0 (`front` is [V, rest…],
 * `ids` any shape [q…], `rows` [q…, rest…]): the gradient of a Gather on axis 0. It is a
 * ScatterElements(add) because onnxruntime's CPU ScatterND(add) races when several threads add to
 * the same row, losing updates (measured: a 2-thread embedding gradient differed run to run);
 * ScatterElements(add) gives the one-thread sums, bit for bit, on any thread count.
 */
function scatterAddRows(front: Tensor, ids: Tensor, rows: Tensor): Tensor {
  const g = front.graph;
  const q = ids.rank;
  const rest = front.shape.slice(1);
  // One index axis of N rows: [N, rest…] (a scalar index is one row).
  const flatRows = q === 1 ? rows : reshapeTo(rows, concat([g.int64s([-1]), slice(shapeOf(rows), [0], [q], [q + rest.length])], 0), [g.freshDim('rows'), ...rest]);
  const flatIds = reshape(ids.dtype === 'int64' ? ids : cast(ids, 'int64'), [-1, ...rest.map(() => 1)]);
  return scatterElements(zerosLike(front), expand(flatIds, shapeOf(flatRows), flatRows.shape), flatRows, 0, 'add');
}

/**
 * The gradient of GatherND (batch_dims 0): indices [m…, k] address the first k axes of data
 * [d0…dk-1, rest…]. Each index becomes one row number of data viewed as [d0·…·dk-1, rest…]
 * (negative indices counted from the end), and the rows are summed as for Gather.
 */
function gatherNDGradient(data: Tensor, indices: Tensor, dy: Tensor): Tensor {
  const g = data.graph;
  const k = indices.shape[indices.rank - 1] as number;
  const shape = shapeOf(data);
  const dims = slice(shape, [0], [0], [k]); // [k]
  const wrapped = where(less(indices, g.scalar(0, 'int64')), add(indices, dims), indices);
  // Row-major strides of the first k axes: stride_{k-1} = 1, stride_j = stride_{j+1}·d_{j+1}.
  const strides: Tensor[] = [g.int64s([1])];
  for (let j = k - 2; j >= 0; j--) strides.unshift(mul(strides[0]!, slice(dims, [0], [j + 1], [j + 2])));
  const rowIds = reduceSum(mul(wrapped, concat(strides, 0)), [-1]); // [m…]
  const rest = data.shape.slice(k);
  const flat = reshapeTo(data, concat([g.int64s([-1]), slice(shape, [0], [k], [data.rank])], 0), [g.freshDim('rows'), ...rest]);
  return reshapeTo(scatterAddRows(flat, rowIds, dy), shape, data.shape);
}

function range0(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}
