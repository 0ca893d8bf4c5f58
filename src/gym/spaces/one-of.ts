import type { AnySpace, JSONSchema, SpaceValue } from './space.js';
import { Space } from './space.js';

/** A member of a {@link OneOf}: `[index, value]` with `value` in `spaces[index]`. */
export type OneOfValue<S extends readonly AnySpace[]> = [index: number, value: SpaceValue<S[number]>];

/**
 * A value from exactly one of several spaces, tagged with the space's index, as Gymnasium's
 * `OneOf`: members are `[index, value]`.
 *
 * @example
 * ```ts
 * const action = new OneOf([new Discrete(3), new Text({ maxLength: 8 })]);
 * action.sample();               // e.g. [1, 'hello']
 * action.contains([0, 2]);       // true
 * action.contains([0, 'hi']);    // false
 * ```
 */
export class OneOf<S extends readonly AnySpace[] = readonly AnySpace[]> extends Space<OneOfValue<S>, never> {
  readonly spaces: S;

  constructor(spaces: S, seed?: number) {
    super(seed);
    if (spaces.length === 0) throw new RangeError('OneOf needs at least one space');
    this.spaces = spaces;
    if (seed !== undefined) this.seedChildren(this.spaces);
  }

  override seed(seed?: number): number[] {
    return [...super.seed(seed), ...this.seedChildren(this.spaces)];
  }

  /** A uniformly chosen sub-space and a sample from it. */
  sample(): OneOfValue<S> {
    const index = this.rng.int(this.spaces.length);
    return [index, this.spaces[index]!.sample()] as unknown as OneOfValue<S>;
  }

  contains(x: unknown): x is OneOfValue<S> {
    if (!Array.isArray(x) || x.length !== 2) return false;
    const [index, value] = x as [unknown, unknown];
    return typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < this.spaces.length && this.spaces[index]!.contains(value);
  }

  equals(other: Space<unknown, unknown>): boolean {
    return (
      other instanceof OneOf &&
      other.spaces.length === this.spaces.length &&
      this.spaces.every((space, i) => space.equals(other.spaces[i] as AnySpace))
    );
  }

  toJSONSchema(): JSONSchema {
    return {
      oneOf: this.spaces.map((space, i) => ({
        type: 'array',
        prefixItems: [{ const: i }, space.toJSONSchema()],
        items: false,
        minItems: 2,
        maxItems: 2,
      })),
      'x-space': 'OneOf',
    };
  }

  override toString(): string {
    return `OneOf(${this.spaces.map(String).join(', ')})`;
  }
}
