import { Rng, randomSeed } from '../../base/rng.js';

/** A JSON Schema object, as exported by {@link Space.toJSONSchema}. */
export type JSONSchema = { [key: string]: unknown };

/** Any space, whatever its member and mask types (the element type of composite spaces). */
export type AnySpace = Space<unknown, unknown>;

/** The member type of a space type: `SpaceValue<Discrete>` is `number`. */
export type SpaceValue<S> = S extends Space<infer T, infer _Mask> ? T : never;

/** The mask type of a space type: `SpaceMask<Discrete>` is `DiscreteMask`. */
export type SpaceMask<S> = S extends Space<infer _T, infer Mask> ? Mask : never;

/**
 * The set of valid actions or observations, as Gymnasium's `Space`.
 *
 * Every space can `sample()` a random member (with an optional mask), test membership with
 * `contains()`, be seeded for reproducible samples, compare structurally with `equals()`, and
 * describe itself as a JSON Schema (used by the server's `/schema` route and by `RemoteEnv` to
 * rebuild spaces on the client).
 *
 * @example
 * ```ts
 * const space = new Discrete(3);
 * space.seed(0);
 * const a = space.sample();   // 0, 1 or 2
 * space.contains(a);          // true
 * ```
 */
export abstract class Space<T = unknown, Mask = never> {
  protected rng: Rng;

  constructor(seed?: number) {
    this.rng = new Rng(seed ?? randomSeed());
  }

  /** A random member of the space; `mask` restricts the choice where the space supports it. */
  abstract sample(mask?: Mask): T;

  /** Whether `x` is a member of the space. */
  abstract contains(x: unknown): x is T;

  /** Structural equality with another space (same kind and parameters). */
  abstract equals(other: Space<unknown, unknown>): boolean;

  /** A JSON Schema describing the space's members, with an `x-space` tag for round-tripping. */
  abstract toJSONSchema(): JSONSchema;

  /**
   * Seed this space's sampler. Returns the seeds used, as Gymnasium does (composite spaces
   * return one seed per sub-space after their own).
   */
  seed(seed?: number): number[] {
    const s = seed ?? randomSeed();
    this.rng.seed(s);
    return [s];
  }

  /** The generator behind `sample()`, for composite spaces that derive child seeds. */
  get sampler(): Rng {
    return this.rng;
  }

  /**
   * Seed each child from this space's (already seeded) generator, as Gymnasium's composite spaces
   * do, so that one seed fixes the whole tree. Returns the children's seeds, flattened.
   */
  protected seedChildren(children: readonly AnySpace[]): number[] {
    const used: number[] = [];
    for (const child of children) used.push(...child.seed(this.rng.nextUint32()));
    return used;
  }
}
