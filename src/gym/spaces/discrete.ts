import type { JSONSchema } from './space.js';
import { Space } from './space.js';

/** Which of a {@link Discrete} space's `n` values may be sampled: entry `i` allows `start + i`. */
export type DiscreteMask = Int8Array | Uint8Array | readonly (boolean | number)[];

/**
 * The integers `start, start + 1, …, start + n − 1`, as Gymnasium's `Discrete(n, start)`.
 *
 * @example
 * ```ts
 * const dice = new Discrete(6, 1, 42);
 * dice.sample();                                  // 1 … 6
 * dice.sample([0, 0, 0, 0, 0, 1]);                // 6 (only the last value allowed)
 * dice.toJSONSchema();                            // { type: 'integer', minimum: 1, maximum: 6, 'x-space': 'Discrete' }
 * ```
 */
export class Discrete extends Space<number, DiscreteMask> {
  constructor(
    readonly n: number,
    readonly start = 0,
    seed?: number,
  ) {
    super(seed);
    if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`Discrete(n) needs a positive integer n, got ${n}`);
    if (!Number.isSafeInteger(start)) throw new RangeError(`Discrete start must be an integer, got ${start}`);
  }

  /** A uniform value, or a uniform value among those the mask allows (`start` when it allows none, as Gymnasium). */
  sample(mask?: DiscreteMask): number {
    if (mask === undefined) return this.start + this.rng.int(this.n);
    if (mask.length !== this.n) {
      throw new RangeError(`Discrete(${this.n}) mask must have length ${this.n}, got ${mask.length}`);
    }
    const allowed: number[] = [];
    for (let i = 0; i < this.n; i++) if (mask[i]) allowed.push(i);
    if (allowed.length === 0) return this.start;
    return this.start + this.rng.choice(allowed);
  }

  contains(x: unknown): x is number {
    return typeof x === 'number' && Number.isInteger(x) && x >= this.start && x < this.start + this.n;
  }

  equals(other: Space<unknown, unknown>): boolean {
    return other instanceof Discrete && other.n === this.n && other.start === this.start;
  }

  toJSONSchema(): JSONSchema {
    return { type: 'integer', minimum: this.start, maximum: this.start + this.n - 1, 'x-space': 'Discrete' };
  }

  override toString(): string {
    return this.start === 0 ? `Discrete(${this.n})` : `Discrete(${this.n}, start=${this.start})`;
  }
}
