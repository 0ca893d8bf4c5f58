/**
 * Shapes with static (number) or symbolic (string) dimensions, and the pure rules that combine
 * them: numpy broadcasting, axis normalisation, element counts.
 */
import { ShapeError } from './errors.js';

/** One dimension: a static size or a symbolic name such as `'batch'`. */
export type Dim = number | string;
/** A tensor shape. */
export type Shape = readonly Dim[];

/** Whether every dimension is a number. */
export function isStatic(shape: Shape): shape is readonly number[] {
  return shape.every((d) => typeof d === 'number');
}

/** Product of static dims, or undefined if any dim is symbolic. */
export function numElements(shape: Shape): number | undefined {
  let n = 1;
  for (const d of shape) {
    if (typeof d !== 'number') return undefined;
    n *= d;
  }
  return n;
}

/**
 * Numpy/ONNX multidirectional broadcasting of shapes. A symbolic dim broadcasts against 1 and
 * against itself; against a different symbol the result keeps the first (runtime checks it).
 *
 * @example
 * ```ts
 * broadcastShapes('Add', [['batch', 1, 4], [3, 1]]); // ['batch', 3, 4]
 * ```
 */
export function broadcastShapes(op: string, shapes: readonly Shape[]): Dim[] {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out: Dim[] = [];
  for (let i = 0; i < rank; i++) {
    let dim: Dim = 1;
    for (const s of shapes) {
      const d = s[s.length - rank + i];
      if (d === undefined || d === 1) continue;
      if (dim === 1) dim = d;
      else if (typeof dim === 'number' && typeof d === 'number' && dim !== d) {
        throw new ShapeError(op, `cannot broadcast shapes ${shapes.map(fmtShape).join(' and ')} (axis ${i}: ${dim} vs ${d})`);
      } else if (typeof dim === 'string' && typeof d === 'number') dim = d;
    }
    out.push(dim);
  }
  return out;
}

/** Resolve a possibly negative axis against `rank`, with a clear error when out of range. */
export function normalizeAxis(op: string, axis: number, rank: number): number {
  const a = axis < 0 ? axis + rank : axis;
  if (!Number.isInteger(a) || a < 0 || a >= rank) {
    throw new ShapeError(op, `axis ${axis} is out of range for a tensor of rank ${rank}`);
  }
  return a;
}

/** `[2, 'seq', 4]` → `"[2, seq, 4]"`, for error messages. */
export function fmtShape(shape: Shape): string {
  return `[${shape.join(', ')}]`;
}

/** Whether two dims are known to be equal (same number or same symbol). */
export function sameDim(a: Dim | undefined, b: Dim | undefined): boolean {
  return a === b;
}

/** Whether two shapes are known to be equal. */
export function sameShape(a: Shape, b: Shape): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}
