import type { AnySpace, JSONSchema, SpaceMask, SpaceValue } from './space.js';
import { Space } from './space.js';

/** Restricts {@link Sequence.sample}: a fixed length and/or a mask for every item. */
export interface SequenceMask<Item> {
  length?: number;
  item?: Item;
}

/**
 * Arrays of any length whose items all lie in one space, as Gymnasium's `Sequence`. Without a
 * mask, `sample()` draws the length from a geometric distribution with p = 0.25 on {0, 1, 2, …}
 * (mean 3), as Gymnasium does.
 *
 * @example
 * ```ts
 * const history = new Sequence(new Discrete(4));
 * history.sample({ length: 3 });  // e.g. [2, 0, 3]
 * history.contains([]);           // true
 * ```
 */
export class Sequence<S extends AnySpace = AnySpace> extends Space<SpaceValue<S>[], SequenceMask<SpaceMask<S>>> {
  constructor(
    readonly featureSpace: S,
    seed?: number,
  ) {
    super(seed);
    if (seed !== undefined) this.seedChildren([featureSpace]);
  }

  override seed(seed?: number): number[] {
    return [...super.seed(seed), ...this.seedChildren([this.featureSpace])];
  }

  sample(mask?: SequenceMask<SpaceMask<S>>): SpaceValue<S>[] {
    const length = mask?.length ?? this.geometricLength();
    if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`Sequence mask length must be a non-negative integer, got ${length}`);
    return Array.from({ length }, () => this.featureSpace.sample(mask?.item) as SpaceValue<S>);
  }

  contains(x: unknown): x is SpaceValue<S>[] {
    return Array.isArray(x) && x.every((item) => this.featureSpace.contains(item));
  }

  equals(other: Space<unknown, unknown>): boolean {
    return other instanceof Sequence && this.featureSpace.equals(other.featureSpace as AnySpace);
  }

  toJSONSchema(): JSONSchema {
    return { type: 'array', items: this.featureSpace.toJSONSchema(), 'x-space': 'Sequence' };
  }

  override toString(): string {
    return `Sequence(${String(this.featureSpace)})`;
  }

  private geometricLength(): number {
    let n = 0;
    while (this.rng.float() >= 0.25) n++;
    return n;
  }
}
