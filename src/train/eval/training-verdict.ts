/**
 * Did GRPO change held-out success beyond chance? The two greedy evaluations of a run — after SFT
 * and at the end — are compared split by split on the same questions, and the conclusion rests on
 * the exact McNemar test of each split's paired questions (Bonferroni over the splits tested), not
 * on the sign of the change: one question in a hundred moves with the update's float rounding alone.
 */
import type { SplitSuccess, TrainingSummary } from '../run/run-types.js';
import { pairedChange, type PairedChange } from './paired-change.js';
import { percent } from './results-table.js';

/** The family-wise significance level, divided among the splits tested. */
export const SIGNIFICANCE = 0.05;

/**
 * One split's change between two evaluations: `missing` (one evaluation lacks the split),
 * `incomparable` (different question counts, as after a resume with another `eval.episodes`),
 * `untested` (the change in points, without per-question results to pair) or `tested`.
 */
export type SplitChange =
  | { split: string; kind: 'missing'; missingIn: 'before' | 'after' }
  | { split: string; kind: 'incomparable'; questionsBefore: number; questionsAfter: number }
  | { split: string; kind: 'untested'; points: number }
  | { split: string; kind: 'tested'; points: number; paired: PairedChange };

/**
 * Compares two evaluations split by split; a split is paired only where both played the same
 * number of its questions and recorded per-question results.
 *
 * @example
 * ```ts
 * splitChanges({ eval: { success: 0.5, meanReturn: 0, episodes: 2, correct: [true, false] } },
 *              { eval: { success: 1, meanReturn: 0, episodes: 2, correct: [true, true] } }, ['eval']);
 * // [{ split: 'eval', kind: 'tested', points: 50, paired: { gained: 1, lost: 0, pValue: 1 } }]
 * ```
 */
export function splitChanges(before: SplitSuccess, after: SplitSuccess, splits: readonly string[]): SplitChange[] {
  return splits.map((split): SplitChange => {
    const [b, a] = [before[split], after[split]];
    if (!b || !a) return { split, kind: 'missing', missingIn: b ? 'after' : 'before' };
    if (b.episodes !== a.episodes) return { split, kind: 'incomparable', questionsBefore: b.episodes, questionsAfter: a.episodes };
    const points = (a.success - b.success) * 100;
    if (!b.correct || !a.correct) return { split, kind: 'untested', points };
    return { split, kind: 'tested', points, paired: pairedChange(b.correct, a.correct) };
  });
}

/** The conclusion over the splits' changes, after the dash of the verdict's second line. */
function conclusion(changes: readonly SplitChange[]): string {
  const compared = changes.filter((c): c is Extract<SplitChange, { points: number }> => c.kind === 'untested' || c.kind === 'tested');
  const tested = changes.filter((c): c is Extract<SplitChange, { kind: 'tested' }> => c.kind === 'tested');
  if (compared.length === 0) return ' — no split was evaluated on the same questions after SFT and after GRPO.';
  if (tested.length < compared.length) {
    // A run whose evaluations predate per-question results: only the points are known.
    const mean = compared.reduce((a, c) => a + c.points, 0) / compared.length;
    return ` — mean ${mean >= 0 ? '+' : ''}${mean.toFixed(1)} pts; this run's evaluations did not record per-question results, so there is no significance test.`;
  }
  const alpha = SIGNIFICANCE / tested.length;
  const beyond = tested.filter((c) => c.paired.pValue < alpha);
  const better = beyond.filter((c) => c.paired.gained > c.paired.lost);
  const worse = beyond.filter((c) => c.paired.lost > c.paired.gained);
  const named = (cs: typeof tested) => cs.map((c) => `${c.split} (p = ${c.paired.pValue.toPrecision(2)})`).join(', ');
  const test = `exact McNemar test on the same questions, p < ${alpha.toPrecision(2)} per split`;
  if (better.length > 0 && worse.length > 0) return ` — mixed: GRPO did better than SFT on ${named(better)} and worse on ${named(worse)} beyond chance (${test}).`;
  if (better.length > 0) return ` — GRPO improved on the SFT checkpoint beyond chance on ${named(better)} (${test}).`;
  if (worse.length > 0) return ` — GRPO did worse than the SFT checkpoint beyond chance on ${named(worse)} (${test}).`;
  return ` — no split changed beyond chance (${test}): GRPO did NOT measurably improve on the SFT checkpoint in this run (see the dashboard and docs/train.md).`;
}

/** A split's change as the verdict prints it. */
function changeText(c: SplitChange): string {
  if (c.kind === 'missing') return `${c.split} not evaluated ${c.missingIn === 'after' ? 'after GRPO' : 'after SFT'}`;
  if (c.kind === 'incomparable') return `${c.split} not comparable (${c.questionsBefore} questions after SFT, ${c.questionsAfter} after GRPO)`;
  const points = `${c.split} ${c.points >= 0 ? '+' : ''}${c.points.toFixed(1)} pts`;
  return c.kind === 'tested' ? `${points} (${c.paired.gained} gained, ${c.paired.lost} lost)` : points;
}

/**
 * The verdict of a run: GRPO's greedy success per split, then its change from SFT in points and in
 * questions gained and lost, and whether any split changed beyond chance. Splits missing from an
 * evaluation or evaluated on different question counts are named, not counted.
 *
 * @example
 * ```ts
 * console.log(trainingVerdict(summary, ['validation', 'eval']));
 * // GRPO's greedy held-out success: validation 50.0%, eval 43.7%
 * // Change from SFT to GRPO: validation +0.0 pts (0 gained, 0 lost), eval +10.1 pts (12 gained, 0 lost) — GRPO improved …
 * ```
 */
export function trainingVerdict(summary: TrainingSummary, splits: readonly string[]): string {
  const sft = summary.evaluations['sft'];
  const final = summary.evaluations['final'];
  if (!sft || !final) return 'No SFT-vs-GRPO comparison in this mode.';
  const changes = splitChanges(sft, final, splits);
  return `GRPO's greedy held-out success: ${splits.map((s) => `${s} ${final[s] ? percent(final[s].success) : '—'}`).join(', ')}\n` +
    `Change from SFT to GRPO: ${changes.map(changeText).join(', ')}${conclusion(changes)}`;
}
