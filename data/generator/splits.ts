/**
 * Assigns questions to the splits: `eval_unseen_db` takes every question of the held-out
 * databases; of the rest, a small `smoke` set of easy and medium questions spread over the
 * databases, then a stratified fraction per database for `eval`, and the remainder `train`.
 */
import { Rng } from '../../src/gym/rng.js';
import type { AcceptedQuestion } from './questions/instantiate.js';

/** The split names of the bundled dataset, in the order they are written. */
export const SPLIT_NAMES = ['train', 'eval', 'eval_unseen_db', 'smoke'] as const;

/** A split name. */
export type SplitName = (typeof SPLIT_NAMES)[number];

/** How to split. */
export interface SplitPlan {
  readonly unseenDbIds: readonly string[];
  /** Fraction of each training database's questions held out for `eval`. */
  readonly evalFraction: number;
  readonly smokeSize: number;
  readonly seed: number;
}

/**
 * Split questions; each question lands in exactly one split, and within a split questions keep
 * their generation order.
 *
 * @example
 * ```ts
 * const splits = assignSplits(questions, { unseenDbIds: ['museum'], evalFraction: 0.2, smokeSize: 30, seed: 1 });
 * splits.get('smoke')?.length; // 30
 * ```
 */
export function assignSplits(questions: readonly AcceptedQuestion[], plan: SplitPlan): Map<SplitName, AcceptedQuestion[]> {
  const rng = new Rng(plan.seed);
  const unseen = new Set(plan.unseenDbIds);
  const label = new Map<AcceptedQuestion, SplitName>();
  for (const q of questions) if (unseen.has(q.dbId)) label.set(q, 'eval_unseen_db');

  const seenDbs = [...new Set(questions.filter((q) => !unseen.has(q.dbId)).map((q) => q.dbId))];
  const candidates = new Map(seenDbs.map((db) => [db, rng.shuffle(questions.filter((q) => q.dbId === db && q.difficulty !== 'hard' && q.difficulty !== 'extra'))]));
  // Round-robin over databases so the smoke split touches every training database.
  for (let round = 0, taken = 0; taken < plan.smokeSize && round < questions.length; round++) {
    for (const db of seenDbs) {
      if (taken >= plan.smokeSize) break;
      const q = candidates.get(db)?.[round];
      if (q) { label.set(q, 'smoke'); taken++; }
    }
  }
  for (const db of seenDbs) {
    const pool = rng.shuffle(questions.filter((q) => q.dbId === db && !label.has(q)));
    const evalCount = Math.round(pool.length * plan.evalFraction);
    pool.forEach((q, i) => label.set(q, i < evalCount ? 'eval' : 'train'));
  }
  const out = new Map<SplitName, AcceptedQuestion[]>(SPLIT_NAMES.map((s) => [s, []]));
  for (const q of questions) out.get(label.get(q)!)!.push(q);
  return out;
}
