import type { AnySpace, JSONSchema, SpaceMask, SpaceValue } from './space.js';
import { Space } from './space.js';

/** The members of a {@link Dict} over `S`: one value per key, each a member of that key's space. */
export type DictValue<S extends Record<string, AnySpace>> = { [K in keyof S]: SpaceValue<S[K]> };

/** Per-key masks for {@link Dict.sample}; keys left out are sampled without a mask. */
export type DictMask<S extends Record<string, AnySpace>> = { [K in keyof S]?: SpaceMask<S[K]> };

/**
 * Objects with a fixed set of keys, each value in its own space, as Gymnasium's `Dict`. A member
 * has exactly the space's keys (no more, no fewer). Keys keep their insertion order.
 *
 * @example
 * ```ts
 * const obs = new Dict({ question: new Text({ maxLength: 200, charset: 'any' }), step: new Discrete(10) });
 * obs.seed(1);           // [1, seed of question, seed of step]
 * obs.sample();          // { question: '…', step: 3 }
 * ```
 */
export class Dict<S extends Record<string, AnySpace> = Record<string, AnySpace>> extends Space<DictValue<S>, DictMask<S>> {
  readonly spaces: Readonly<S>;

  constructor(spaces: S, seed?: number) {
    super(seed);
    this.spaces = { ...spaces };
    if (seed !== undefined) this.seedChildren(Object.values(this.spaces));
  }

  /** The keys, in order. */
  keys(): (keyof S & string)[] {
    return Object.keys(this.spaces) as (keyof S & string)[];
  }

  override seed(seed?: number): number[] {
    return [...super.seed(seed), ...this.seedChildren(Object.values(this.spaces))];
  }

  sample(mask?: DictMask<S>): DictValue<S> {
    const out: Record<string, unknown> = {};
    for (const key of this.keys()) out[key] = this.spaces[key]!.sample(mask?.[key]);
    return out as DictValue<S>;
  }

  contains(x: unknown): x is DictValue<S> {
    if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
    const record = x as Record<string, unknown>;
    const keys = this.keys();
    if (Object.keys(record).length !== keys.length) return false;
    return keys.every((k) => Object.prototype.hasOwnProperty.call(record, k) && this.spaces[k]!.contains(record[k]));
  }

  equals(other: Space<unknown, unknown>): boolean {
    if (!(other instanceof Dict)) return false;
    const theirs = other.spaces as Record<string, AnySpace>;
    const keys = this.keys();
    return Object.keys(theirs).length === keys.length && keys.every((k) => theirs[k] !== undefined && this.spaces[k]!.equals(theirs[k]));
  }

  toJSONSchema(): JSONSchema {
    const properties: Record<string, JSONSchema> = {};
    for (const key of this.keys()) properties[key] = this.spaces[key]!.toJSONSchema();
    return { type: 'object', properties, required: this.keys(), additionalProperties: false, 'x-space': 'Dict' };
  }

  override toString(): string {
    return `Dict(${this.keys().map((k) => `${k}: ${String(this.spaces[k])}`).join(', ')})`;
  }
}
