/**
 * The order in which a training run (or an evaluation) visits a split's questions. Datasets are stored grouped by
 * database and template, so "the first 40 questions" of a split are one database's easy ones: an
 * SFT set or an evaluation sample taken from the front would be neither varied nor
 * representative. A fixed shuffle (the same for every run seed, so every seed is evaluated on
 * the same questions) makes any prefix a fair sample of databases and difficulties.
 */
import { Rng } from '../../../base/rng.js';

/** Seed of the shuffle; fixed so evaluation samples do not change with the run's seed. */
const ORDER_SEED = 0x5eed;

/**
 * The items in a fixed pseudo-random order (Fisher–Yates with a seeded PRNG); a new array.
 *
 * @example
 * ```ts
 * const ids = representativeOrder(dataset.questions).map((q) => q.id);
 * ids.slice(0, 40); // a sample of every database and difficulty
 * ```
 */
export function representativeOrder<T>(items: readonly T[]): T[] {
  return new Rng(ORDER_SEED).shuffle(items);
}
