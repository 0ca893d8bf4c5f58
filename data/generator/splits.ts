/**
 * Assigns questions to the splits: `eval_unseen_db` takes every question of the held-out test
 * databases and `validation_unseen_db` every question of the held-out validation databases; of
 * the rest, a small `smoke` set of easy and medium questions spread over the databases, then a
 * stratified fraction per database for `eval`, a stratified fraction of what remains for
 * `validation`, and the remainder `train`.
 *
 * `eval` and `eval_unseen_db` are the test splits (reported, never tuned on); `validation` and
 * `validation_unseen_db` are for choosing settings. The validation carve-out draws from its own
 * random stream after the other splits are fixed, so adding it left `eval`, `eval_unseen_db` and
 * `smoke` exactly as they were.
 */
import { Rng } from '../../src/base/rng.js';
import { BUNDLED_SPLITS } from '../lib/spider-layout.js';
import type { AcceptedQuestion } from './questions/instantiate.js';

/** The split names of the bundled dataset, in the order they are written. */
export const SPLIT_NAMES = BUNDLED_SPLITS;

/** A split name. */
export type SplitName = (typeof SPLIT_NAMES)[number];

/** How to split. */
export interface SplitPlan {
  readonly unseenDbIds: readonly string[];
  /** Databases whose questions all go to `validation_unseen_db` (none: the split is empty). */
  readonly validationUnseenDbIds?: readonly string[];
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
  const validationUnseen = new Set(plan.validationUnseenDbIds ?? []);
  for (const q of questions) {
    if (unseen.has(q.dbId)) label.set(q, 'eval_unseen_db');
    else if (validationUnseen.has(q.dbId)) label.set(q, 'validation_unseen_db');
  }

  const seenDbs = [...new Set(questions.filter((q) => !label.has(q)).map((q) => q.dbId))];
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

/**
 * Takes `fraction` of each database's questions in `extra` (at random, from a stream of its own)
 * for `validation`; returns them and the rest, both in their original order.
 *
 * Why from the extra questions and not from `train`: a model pre-trained on the training split's
 * own questions (the bundled tiny-sql base) has memorised their SQL, so a validation split carved
 * out of them scores memory, not generalisation, and punishes any later training that erodes
 * it. The extra instantiations are as new to such a model as `eval` is.
 *
 * @example
 * ```ts
 * const { validation, rest } = carveValidation(extra, 0.03, 1);
 * ```
 */
export function carveValidation(extra: readonly AcceptedQuestion[], fraction: number, seed: number): { validation: AcceptedQuestion[]; rest: AcceptedQuestion[] } {
  if (!(fraction >= 0 && fraction < 1)) throw new RangeError(`validation fraction must be in [0, 1), got ${fraction}`);
  const rng = new Rng(seed ^ 0x5a17);
  const chosen = new Set<AcceptedQuestion>();
  for (const db of [...new Set(extra.map((q) => q.dbId))]) {
    const pool = rng.shuffle(extra.filter((q) => q.dbId === db));
    pool.slice(0, Math.round(pool.length * fraction)).forEach((q) => chosen.add(q));
  }
  return { validation: extra.filter((q) => chosen.has(q)), rest: extra.filter((q) => !chosen.has(q)) };
}
