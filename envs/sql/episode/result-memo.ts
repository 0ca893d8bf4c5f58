import { profileGold, progressPotential, type GoldProfile } from '../reward/potential.js';
import type { PotentialWeights } from '../reward/reward-config.js';
import { executionMatch, type GoldAnswer } from '../judge/judge-answer.js';
import type { JudgeConfig } from '../judge/judge-config.js';
import { hasTopLevelOrderBy } from '../judge/order-by.js';
import { hashResult } from './result-hash.js';

/**
 * Per-result memos of what a query step computes from its rows: the novelty hash, Φ against a
 * gold result, and whether they are the gold result. Keys are the arrays themselves (weakly held), so they only ever hit when the very
 * same rows come back — a result answered from the `QueryResultCache`, which is shared and never
 * changed — and a repeated query then costs no hashing or scoring. Rows built afresh for each
 * query simply miss.
 */
const hashes = new WeakMap<readonly (readonly unknown[])[], { columns: readonly string[]; hash: string }>();
const profiles = new WeakMap<readonly (readonly unknown[])[], GoldProfile>();

/**
 * A value computed once per (a, b, c) of objects, all three weakly held; `compute` runs on a miss
 * (whatever else it reads must follow from the three keys).
 */
function tripleMemo<A extends object, B extends object, C extends object, V>(): (a: A, b: B, c: C, compute: () => V) => V {
  const byA = new WeakMap<A, WeakMap<B, WeakMap<C, V>>>();
  return (a, b, c, compute) => {
    let byB = byA.get(a);
    if (!byB) byA.set(a, (byB = new WeakMap()));
    let byC = byB.get(b);
    if (!byC) byB.set(b, (byC = new WeakMap()));
    if (byC.has(c)) return byC.get(c)!;
    const value = compute();
    byC.set(c, value);
    return value;
  };
}

type Rows = readonly (readonly unknown[])[];
const potentials = tripleMemo<Rows, GoldProfile, PotentialWeights, number>();
/** Keyed by the gold rows (the dataset's cached array per question, so shared by its episodes), not the per-episode GoldAnswer. */
const goldMatches = tripleMemo<Rows, Rows, JudgeConfig, boolean>();

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
  return potentials(rows, gold, weights, () => progressPotential(rows, gold, weights).phi);
}

/**
 * Whether rows are the gold result under the answer judge's execution match (what an SQL answer
 * is judged by), remembered for these exact rows, gold answer and judge settings.
 *
 * @example
 * ```ts
 * memoMatchesGold(result.fullRows ?? result.rows, episode.gold, judgeConfig);
 * ```
 */
export function memoMatchesGold(rows: readonly (readonly unknown[])[], gold: GoldAnswer, judge: JudgeConfig): boolean {
  return goldMatches(rows, gold.rows, judge, () =>
    executionMatch(rows, gold.rows, { ordered: hasTopLevelOrderBy(gold.sql), numbers: judge.numbers, ignoreDuplicates: judge.acceptDistinctRows }));
}
