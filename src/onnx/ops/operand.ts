/** Shared checks for op inputs. */
import type { DType } from '../dtype.js';
import { ShapeError } from '../graph/errors.js';
import type { Operand, Tensor } from '../graph/tensor.js';

/** Turn a number into a scalar constant of `like`'s dtype; tensors pass through. */
export function lift(like: Tensor, v: Operand): Tensor {
  return typeof v === 'number' ? like.graph.scalar(v, like.dtype) : v;
}

/** Throw unless all tensors share one dtype (ONNX does not promote types). */
export function sameDType(op: string, ...ts: readonly Tensor[]): DType {
  const d = ts[0]!.dtype;
  for (const t of ts) {
    if (t.dtype !== d) {
      throw new ShapeError(op, `dtypes differ (${ts.map((x) => `${x.name}: ${x.dtype}`).join(', ')}); cast one operand first`);
    }
  }
  return d;
}

/** Throw unless `t` has one of the allowed dtypes. */
export function expectDType(op: string, t: Tensor, allowed: readonly DType[]): void {
  if (!allowed.includes(t.dtype)) throw new ShapeError(op, `${t.name} has dtype ${t.dtype}; expected ${allowed.join(' or ')}`);
}

/** Float dtypes, which carry gradients. */
export const FLOATS: readonly DType[] = ['float32', 'float64', 'float16'];
