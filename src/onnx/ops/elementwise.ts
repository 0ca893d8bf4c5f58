/**
 * Elementwise ops (numpy broadcasting) with their gradient rules beside them.
 * Gradients of broadcast operands are reduced by {@link unbroadcast}.
 */
import type { DType } from '../dtype.js';
import { ONNX_DTYPE_CODE, isFloatDType } from '../dtype.js';
import { unbroadcast } from '../autodiff/unbroadcast.js';
import type { GradRules } from '../autodiff/types.js';
import { attrInt } from '../graph/node.js';
import { broadcastShapes } from '../graph/shape.js';
import type { Operand, Tensor } from '../graph/tensor.js';
import { FLOATS, expectDType, lift, sameDType } from './operand.js';

function binary(op: string, a: Tensor, bv: Operand, outDType?: DType): Tensor {
  const b = lift(a, bv);
  const dtype = sameDType(op, a, b);
  const shape = broadcastShapes(op, [a.shape, b.shape]);
  return a.graph.apply(op, [a, b], {}, [{ dtype: outDType ?? dtype, shape }])[0]!;
}

function unary(op: string, x: Tensor, allowed: readonly DType[] = FLOATS): Tensor {
  expectDType(op, x, allowed);
  return x.graph.apply(op, [x], {}, [{ dtype: x.dtype, shape: x.shape }])[0]!;
}

/** `a + b` (broadcasting). @example `add(x, 1)` */
export const add = (a: Tensor, b: Operand): Tensor => binary('Add', a, b);
/** `a - b`. @example `sub(x, m)` */
export const sub = (a: Tensor, b: Operand): Tensor => binary('Sub', a, b);
/** `a * b`. @example `mul(x, 0.5)` */
export const mul = (a: Tensor, b: Operand): Tensor => binary('Mul', a, b);
/** `a / b`. @example `div(x, n)` */
export const div = (a: Tensor, b: Operand): Tensor => binary('Div', a, b);
/** `a ** b`. @example `pow(x, 2)` */
export const pow = (a: Tensor, b: Operand): Tensor => binary('Pow', a, b);
/** Elementwise minimum of two tensors. @example `minimum(x, 0)` */
export const minimum = (a: Tensor, b: Operand): Tensor => binary('Min', a, b);
/** Elementwise maximum of two tensors. @example `maximum(x, 0)` */
export const maximum = (a: Tensor, b: Operand): Tensor => binary('Max', a, b);
/** `a == b` → bool. @example `equal(ids, padId)` */
export const equal = (a: Tensor, b: Operand): Tensor => binary('Equal', a, b, 'bool');
/** `a < b` → bool. @example `less(pos, len)` */
export const less = (a: Tensor, b: Operand): Tensor => binary('Less', a, b, 'bool');
/** `a > b` → bool. @example `greater(x, 0)` */
export const greater = (a: Tensor, b: Operand): Tensor => binary('Greater', a, b, 'bool');
/** Logical and of bool tensors. @example `and(m1, m2)` */
export const and = (a: Tensor, b: Tensor): Tensor => binary('And', a, b);
/** Logical not of a bool tensor. @example `not(mask)` */
export const not = (x: Tensor): Tensor => unary('Not', x, ['bool']);
/** `-x`. @example `neg(x)` */
export const neg = (x: Tensor): Tensor => unary('Neg', x, [...FLOATS, 'int64', 'int32']);
/** `e^x`. @example `exp(x)` */
export const exp = (x: Tensor): Tensor => unary('Exp', x);
/** Natural log. @example `log(p)` */
export const log = (x: Tensor): Tensor => unary('Log', x);
/** Square root. @example `sqrt(v)` */
export const sqrt = (x: Tensor): Tensor => unary('Sqrt', x);
/** `1 / x`. @example `reciprocal(x)` */
export const reciprocal = (x: Tensor): Tensor => unary('Reciprocal', x);
/** `|x|`. @example `abs(x)` */
export const abs = (x: Tensor): Tensor => unary('Abs', x);
/** Logistic sigmoid. @example `sigmoid(x)` */
export const sigmoid = (x: Tensor): Tensor => unary('Sigmoid', x);
/** Hyperbolic tangent. @example `tanh(x)` */
export const tanh = (x: Tensor): Tensor => unary('Tanh', x);
/** `max(x, 0)`. @example `relu(x)` */
export const relu = (x: Tensor): Tensor => unary('Relu', x);
/** Gauss error function (for exact GELU). @example `erf(x)` */
export const erf = (x: Tensor): Tensor => unary('Erf', x);
/** Sign of x (-1, 0, 1). @example `sign(x)` */
export const sign = (x: Tensor): Tensor => unary('Sign', x);

/** Convert to another dtype. @example `cast(mask, 'float32')` */
export function cast(x: Tensor, dtype: DType): Tensor {
  return x.graph.apply('Cast', [x], { to: attrInt(ONNX_DTYPE_CODE[dtype]) }, [{ dtype, shape: x.shape }])[0]!;
}

/** `cond ? a : b` elementwise with broadcasting. @example `where(mask, scores, -1e9)` */
export function where(cond: Tensor, a: Operand, b: Operand): Tensor {
  const like = typeof a === 'number' ? (b as Tensor) : a;
  const ta = lift(like, a);
  const tb = lift(like, b);
  expectDType('Where', cond, ['bool']);
  const dtype = sameDType('Where', ta, tb);
  return cond.graph.apply('Where', [cond, ta, tb], {}, [{ dtype, shape: broadcastShapes('Where', [cond.shape, ta.shape, tb.shape]) }])[0]!;
}

/** Clamp to `[lo, hi]` (either bound optional). @example `clip(x, -1, 1)` */
export function clip(x: Tensor, lo?: number, hi?: number): Tensor {
  const g = x.graph;
  const inputs = [x, lo === undefined ? undefined : g.scalar(lo, x.dtype), hi === undefined ? undefined : g.scalar(hi, x.dtype)];
  return g.apply('Clip', inputs, {}, [{ dtype: x.dtype, shape: x.shape }])[0]!;
}

/** Zero where `keep` is false, else `dy`. */
const masked = (keep: Tensor, dy: Tensor): Tensor => where(keep, dy, 0);

/** Gradient rules of this file's ops. */
export const elementwiseGrads: GradRules = {
  Add: ({ x: [a, b], dy: [dy] }) => [unbroadcast(dy!, a!), unbroadcast(dy!, b!)],
  Sub: ({ x: [a, b], dy: [dy] }) => [unbroadcast(dy!, a!), unbroadcast(neg(dy!), b!)],
  Mul: ({ x: [a, b], dy: [dy], wants }) => [
    wants[0] ? unbroadcast(mul(dy!, b!), a!) : undefined,
    wants[1] ? unbroadcast(mul(dy!, a!), b!) : undefined,
  ],
  Div: ({ x: [a, b], y: [y], dy: [dy], wants }) => [
    wants[0] ? unbroadcast(div(dy!, b!), a!) : undefined,
    wants[1] ? unbroadcast(neg(div(mul(dy!, y!), b!)), b!) : undefined,
  ],
  Pow: ({ x: [a, b], y: [y], dy: [dy], wants }) => [
    wants[0] ? unbroadcast(mul(dy!, mul(b!, pow(a!, sub(b!, 1)))), a!) : undefined,
    wants[1] ? unbroadcast(mul(dy!, mul(y!, log(a!))), b!) : undefined,
  ],
  Min: ({ x: [a, b], dy: [dy] }) => {
    const pickA = binary('LessOrEqual', a!, b!, 'bool');
    return [unbroadcast(masked(pickA, dy!), a!), unbroadcast(masked(not(pickA), dy!), b!)];
  },
  Max: ({ x: [a, b], dy: [dy] }) => {
    const pickA = binary('GreaterOrEqual', a!, b!, 'bool');
    return [unbroadcast(masked(pickA, dy!), a!), unbroadcast(masked(not(pickA), dy!), b!)];
  },
  Neg: ({ dy: [dy] }) => [neg(dy!)],
  Exp: ({ y: [y], dy: [dy] }) => [mul(dy!, y!)],
  Log: ({ x: [x], dy: [dy] }) => [div(dy!, x!)],
  Sqrt: ({ y: [y], dy: [dy] }) => [div(mul(dy!, 0.5), y!)],
  Reciprocal: ({ y: [y], dy: [dy] }) => [neg(mul(dy!, mul(y!, y!)))],
  Abs: ({ x: [x], dy: [dy] }) => [mul(dy!, sign(x!))],
  Sigmoid: ({ y: [y], dy: [dy] }) => [mul(dy!, mul(y!, sub(y!.graph.scalar(1, y!.dtype), y!)))],
  Tanh: ({ y: [y], dy: [dy] }) => [mul(dy!, sub(y!.graph.scalar(1, y!.dtype), mul(y!, y!)))],
  Relu: ({ x: [x], dy: [dy] }) => [masked(greater(x!, 0), dy!)],
  Erf: ({ x: [x], dy: [dy] }) => [mul(dy!, mul(exp(neg(mul(x!, x!))), 2 / Math.sqrt(Math.PI)))],
  Clip: ({ x: [x], y: [y], dy: [dy] }) => [masked(equal(x!, y!), dy!)],
  Where: ({ x: [cond, a, b], dy: [dy] }) => [undefined, unbroadcast(where(cond!, dy!, 0), a!), unbroadcast(where(cond!, 0, dy!), b!)],
  Cast: ({ x: [x], dy: [dy] }) => [isFloatDType(x!.dtype) ? cast(dy!, x!.dtype) : undefined],
  Identity: ({ dy: [dy] }) => [dy],
};
