/**
 * A symbolic tensor: a named value in a {@link Graph} with a dtype and a (static or symbolic)
 * shape. Methods are sugar over the op functions in `../ops`, so model code reads like
 * `x.matmul(w).add(b).relu()`.
 */
import type { DType } from '../dtype.js';
import type { Graph } from './graph.js';
import type { Node } from './node.js';
import type { Dim, Shape } from './shape.js';
import * as ew from '../ops/elementwise.js';
import * as mm from '../ops/matmul.js';
import * as red from '../ops/reduce.js';
import * as sh from '../ops/shape-ops.js';
import * as idx from '../ops/indexing.js';
import * as nn from '../ops/nn.js';

/** Where a tensor comes from. */
export type TensorKind = 'input' | 'initializer' | 'constant' | 'node';

/**
 * A value in a graph. Create tensors with `Graph.input/param/constant` or by applying ops.
 *
 * @example
 * ```ts
 * const g = new Graph();
 * const x = g.input('x', 'float32', ['batch', 4]);
 * const y = x.mul(2).sum([1]);
 * ```
 */
export class Tensor {
  constructor(
    readonly graph: Graph,
    readonly name: string,
    readonly dtype: DType,
    readonly shape: Shape,
    readonly kind: TensorKind,
    /** The node that computes this tensor (kind `'node'` only). */
    readonly producer?: Node,
  ) {}

  /** Number of dimensions. */
  get rank(): number {
    return this.shape.length;
  }

  /** Dim `i` (negative counts from the end). */
  dim(i: number): Dim {
    const d = this.shape[i < 0 ? this.shape.length + i : i];
    if (d === undefined) throw new RangeError(`${this.name}: no axis ${i} in rank-${this.rank} tensor`);
    return d;
  }

  // Each method below is the op function of the same name (see ../ops) applied to this tensor.
  add(other: Operand): Tensor { return ew.add(this, other); }
  sub(other: Operand): Tensor { return ew.sub(this, other); }
  mul(other: Operand): Tensor { return ew.mul(this, other); }
  div(other: Operand): Tensor { return ew.div(this, other); }
  pow(other: Operand): Tensor { return ew.pow(this, other); }
  neg(): Tensor { return ew.neg(this); }
  exp(): Tensor { return ew.exp(this); }
  log(): Tensor { return ew.log(this); }
  sqrt(): Tensor { return ew.sqrt(this); }
  reciprocal(): Tensor { return ew.reciprocal(this); }
  abs(): Tensor { return ew.abs(this); }
  sigmoid(): Tensor { return ew.sigmoid(this); }
  tanh(): Tensor { return ew.tanh(this); }
  relu(): Tensor { return ew.relu(this); }
  silu(): Tensor { return nn.silu(this); }
  cast(dtype: DType): Tensor { return ew.cast(this, dtype); }
  matmul(other: Tensor): Tensor { return mm.matmul(this, other); }
  sum(axes?: readonly number[], keepdims = false): Tensor { return red.reduceSum(this, axes, keepdims); }
  mean(axes?: readonly number[], keepdims = false): Tensor { return red.reduceMean(this, axes, keepdims); }
  max(axes?: readonly number[], keepdims = false): Tensor { return red.reduceMax(this, axes, keepdims); }
  softmax(axis = -1): Tensor { return nn.softmax(this, axis); }
  logSoftmax(axis = -1): Tensor { return nn.logSoftmax(this, axis); }
  reshape(shape: readonly number[]): Tensor { return sh.reshape(this, shape); }
  transpose(perm?: readonly number[]): Tensor { return sh.transpose(this, perm); }
  unsqueeze(axes: readonly number[]): Tensor { return sh.unsqueeze(this, axes); }
  squeeze(axes: readonly number[]): Tensor { return sh.squeeze(this, axes); }
  slice(axis: number, start: number, end: number, step = 1): Tensor { return sh.slice(this, [axis], [start], [end], [step]); }
  gather(indices: Tensor, axis = 0): Tensor { return idx.gather(this, indices, axis); }
  toString(): string { return `Tensor(${this.name}: ${this.dtype}[${this.shape.join(', ')}])`; }
}

/** A tensor or a plain number (broadcast as a scalar constant of the other operand's dtype). */
export type Operand = Tensor | number;
