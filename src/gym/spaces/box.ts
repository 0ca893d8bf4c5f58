import type { JSONSchema } from './space.js';
import { Space } from './space.js';

/** Element type of a {@link Box}: real numbers or integers. */
export type BoxDtype = 'float' | 'int';

/** A member of a {@link Box}: its elements flattened in row-major order. */
export type BoxValue = number[] | Float64Array | Float32Array | Int32Array;

/**
 * A (possibly unbounded) box in R^shape, as Gymnasium's `Box(low, high, shape, dtype)`.
 *
 * Members are flat arrays of `prod(shape)` numbers in row-major order: JavaScript has no ndarray,
 * and flat arrays survive JSON and structured cloning unchanged. `low`/`high` are a scalar for
 * every element or one bound per element; infinite bounds are allowed. Sampling follows
 * Gymnasium: uniform on bounded elements, normal when unbounded on both sides, a shifted
 * exponential when bounded on one side.
 *
 * @example
 * ```ts
 * const unit = new Box(0, 1, [2, 3]);
 * unit.sample();                 // 6 numbers in [0, 1]
 * unit.contains([0, 0.5, 1, 1, 0, 0]); // true
 * new Box([-1, 0], [1, 10], undefined, { dtype: 'int' }).sample(); // e.g. [0, 7]
 * ```
 */
export class Box extends Space<number[], never> {
  readonly shape: readonly number[];
  readonly low: readonly number[];
  readonly high: readonly number[];
  readonly dtype: BoxDtype;
  /** Number of elements, `prod(shape)`. */
  readonly size: number;

  constructor(
    low: number | readonly number[],
    high: number | readonly number[],
    shape?: readonly number[],
    options: { dtype?: BoxDtype; seed?: number } = {},
  ) {
    super(options.seed);
    const inferred = shape ?? (Array.isArray(low) ? [low.length] : Array.isArray(high) ? [high.length] : [1]);
    for (const d of inferred) {
      if (!Number.isSafeInteger(d) || d < 0) throw new RangeError(`Box shape must hold non-negative integers, got [${inferred.join(', ')}]`);
    }
    this.shape = [...inferred];
    this.size = inferred.reduce((a, b) => a * b, 1);
    this.dtype = options.dtype ?? 'float';
    this.low = broadcastBound(low, this.size, 'low');
    this.high = broadcastBound(high, this.size, 'high');
    for (let i = 0; i < this.size; i++) {
      if (Number.isNaN(this.low[i]) || Number.isNaN(this.high[i]) || this.low[i]! > this.high[i]!) {
        throw new RangeError(`Box needs low <= high everywhere; element ${i} has low ${this.low[i]} and high ${this.high[i]}`);
      }
    }
  }

  /** Whether every element has finite bounds on both sides. */
  isBounded(): boolean {
    return this.low.every(Number.isFinite) && this.high.every(Number.isFinite);
  }

  sample(): number[] {
    const out = new Array<number>(this.size);
    for (let i = 0; i < this.size; i++) {
      const lo = this.low[i]!;
      const hi = this.high[i]!;
      let x: number;
      if (Number.isFinite(lo) && Number.isFinite(hi)) {
        x = this.dtype === 'int' ? lo + this.rng.int(hi - lo + 1) : lo + (hi - lo) * this.rng.float();
      } else if (Number.isFinite(lo)) {
        x = lo + this.exponential();
      } else if (Number.isFinite(hi)) {
        x = hi - this.exponential();
      } else {
        x = this.rng.normal();
      }
      out[i] = this.dtype === 'int' ? Math.floor(x) : x;
    }
    return out;
  }

  contains(x: unknown): x is number[] {
    if (!isNumericArray(x) || x.length !== this.size) return false;
    for (let i = 0; i < this.size; i++) {
      const v = x[i]!;
      if (Number.isNaN(v) || v < this.low[i]! || v > this.high[i]!) return false;
      if (this.dtype === 'int' && !Number.isInteger(v)) return false;
    }
    return true;
  }

  equals(other: Space<unknown, unknown>): boolean {
    return (
      other instanceof Box &&
      other.dtype === this.dtype &&
      sameNumbers(other.shape, this.shape) &&
      sameNumbers(other.low, this.low) &&
      sameNumbers(other.high, this.high)
    );
  }

  toJSONSchema(): JSONSchema {
    const items: JSONSchema = { type: this.dtype === 'int' ? 'integer' : 'number' };
    const uniformLow = this.low.every((v) => v === this.low[0]);
    const uniformHigh = this.high.every((v) => v === this.high[0]);
    if (uniformLow && this.size > 0 && Number.isFinite(this.low[0])) items.minimum = this.low[0];
    if (uniformHigh && this.size > 0 && Number.isFinite(this.high[0])) items.maximum = this.high[0];
    return {
      type: 'array',
      items,
      minItems: this.size,
      maxItems: this.size,
      'x-space': 'Box',
      'x-shape': [...this.shape],
      // JSON has no Infinity: an unbounded side is written as null.
      'x-low': this.low.map((v) => (Number.isFinite(v) ? v : null)),
      'x-high': this.high.map((v) => (Number.isFinite(v) ? v : null)),
      'x-dtype': this.dtype,
    };
  }

  override toString(): string {
    return `Box(shape=[${this.shape.join(', ')}], dtype=${this.dtype})`;
  }

  private exponential(): number {
    return -Math.log(1 - this.rng.float());
  }
}

function broadcastBound(bound: number | readonly number[], size: number, name: string): number[] {
  if (typeof bound === 'number') return new Array<number>(size).fill(bound);
  if (bound.length !== size) throw new RangeError(`Box ${name} has ${bound.length} elements but the shape holds ${size}`);
  return [...bound];
}

function isNumericArray(x: unknown): x is ArrayLike<number> {
  if (x instanceof Float64Array || x instanceof Float32Array || x instanceof Int32Array) return true;
  return Array.isArray(x) && x.every((v) => typeof v === 'number');
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}
