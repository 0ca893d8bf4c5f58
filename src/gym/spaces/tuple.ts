import type { AnySpace, JSONSchema, SpaceMask, SpaceValue } from './space.js';
import { Space } from './space.js';

/** The members of a {@link Tuple} over `S`: an array with one member of each space, in order. */
export type TupleValue<S extends readonly AnySpace[]> = { -readonly [I in keyof S]: SpaceValue<S[I]> };

/** Per-position masks for {@link Tuple.sample}. */
export type TupleMask<S extends readonly AnySpace[]> = { [I in keyof S]?: SpaceMask<S[I]> };

/**
 * Fixed-length arrays whose i-th element lies in the i-th space, as Gymnasium's `Tuple`.
 *
 * @example
 * ```ts
 * const pair = new Tuple([new Discrete(2), new Text({ maxLength: 3 })]);
 * pair.sample();             // e.g. [1, 'aZ']
 * pair.contains([0, 'ok']);  // true
 * ```
 */
export class Tuple<S extends readonly AnySpace[] = readonly AnySpace[]> extends Space<TupleValue<S>, TupleMask<S>> {
  readonly spaces: S;

  constructor(spaces: S, seed?: number) {
    super(seed);
    this.spaces = spaces;
    if (seed !== undefined) this.seedChildren(this.spaces);
  }

  override seed(seed?: number): number[] {
    return [...super.seed(seed), ...this.seedChildren(this.spaces)];
  }

  sample(mask?: TupleMask<S>): TupleValue<S> {
    const masks = mask as readonly unknown[] | undefined;
    return this.spaces.map((space, i) => space.sample(masks?.[i])) as TupleValue<S>;
  }

  contains(x: unknown): x is TupleValue<S> {
    return Array.isArray(x) && x.length === this.spaces.length && this.spaces.every((space, i) => space.contains(x[i]));
  }

  equals(other: Space<unknown, unknown>): boolean {
    return (
      other instanceof Tuple &&
      other.spaces.length === this.spaces.length &&
      this.spaces.every((space, i) => space.equals(other.spaces[i] as AnySpace))
    );
  }

  toJSONSchema(): JSONSchema {
    return {
      type: 'array',
      prefixItems: this.spaces.map((s) => s.toJSONSchema()),
      items: false,
      minItems: this.spaces.length,
      maxItems: this.spaces.length,
      'x-space': 'Tuple',
    };
  }

  override toString(): string {
    return `Tuple(${this.spaces.map(String).join(', ')})`;
  }
}
