import { profileGold, progressPotential, type GoldProfile } from '../reward/potential.js';
import type { PotentialWeights } from '../reward/reward-config.js';
import { hashResult } from './result-hash.js';

/**
 * Per-result memos of what a query step computes from its rows: the novelty hash and Φ against a
 * gold result. Keys are the arrays themselves (weakly held), so they only ever hit when the very
 * same rows come back — a result answered from the `QueryResultCache`, which is shared and never
 * changed — and a repeated query then costs no hashing or scoring. Rows built afresh for each
 * query simply miss.
 */
const hashes = new WeakMap<readonly (readonly unknown[])[], { columns: readonly string[]; hash: string }>();
const profiles = new WeakMap<readonly (readonly unknown[])[], GoldProfile>();
const potentials = new WeakMap<readonly (readonly unknown[])[], WeakMap<GoldProfile, WeakMap<PotentialWeights, number>>>();

/**
 * `hashResult(columns, rows)`, remembered for these exact arrays.
 *
 * @example
 * ```ts
 * memoHashResult(result.columns, result.fullRows ?? result.rows); // computed once per cached result
 * ```
 */
export function memoHashResult(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const known = hashes.get(rows);
  if (known && known.columns === columns) return known.hash;
  const hash = hashResult(columns, rows);
  hashes.set(rows, { columns, hash });
  return hash;
}

/**
 * The gold rows' `profileGold` profile, built once per gold result (datasets cache gold results,
 * so every episode of a question shares it).
 *
 * @example
 * ```ts
 * const profile = memoGoldProfile(gold.rows);
 * ```
 */
export function memoGoldProfile(goldRows: readonly (readonly unknown[])[]): GoldProfile {
  let profile = profiles.get(goldRows);
  if (!profile) {
    profile = profileGold(goldRows);
    profiles.set(goldRows, profile);
  }
  return profile;
}

/**
 * `progressPotential(rows, gold, weights).phi`, remembered for these exact rows, profile and weights.
 *
 * @example
 * ```ts
 * memoPhi(result.fullRows ?? result.rows, memoGoldProfile(gold.rows), config.potentialWeights);
 * ```
 */
export function memoPhi(rows: readonly (readonly unknown[])[], gold: GoldProfile, weights: PotentialWeights): number {
  let byGold = potentials.get(rows);
  if (!byGold) potentials.set(rows, (byGold = new WeakMap()));
  let byWeights = byGold.get(gold);
  if (!byWeights) byGold.set(gold, (byWeights = new WeakMap()));
  let phi = byWeights.get(weights);
  if (phi === undefined) {
    phi = progressPotential(rows, gold, weights).phi;
    byWeights.set(weights, phi);
  }
  return phi;
}
