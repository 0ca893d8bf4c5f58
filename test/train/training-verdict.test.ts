import { describe, expect, it } from 'vitest';
import { splitChanges, trainingVerdict } from '../../src/train/eval/training-verdict.js';
import type { SplitResult } from '../../src/train/run/run-types.js';

describe('trainingVerdict', () => {
  const split = (success: number, episodes: number) => ({ success, meanReturn: 0, episodes });
  const summaryOf = (sft: Record<string, SplitResult>, final: Record<string, SplitResult>) => ({ formatCheck: {}, sftSteps: 1, grpoSteps: 1, wallSeconds: 1, evaluations: { sft, final } });
  /** `right` of `n` questions answered, the first `right` of them (or those listed by index). */
  const answered = (n: number, right: number | number[]) => {
    const correct = Array.from({ length: n }, (_, i) => (typeof right === 'number' ? i < right : right.includes(i)));
    return { success: correct.filter(Boolean).length / n, meanReturn: 0, episodes: n, correct };
  };
  it('prints the change per split in points and in questions gained and lost, and calls a change beyond chance an improvement', () => {
    // 12 gained, 0 lost on eval: exact McNemar p = 2 · 2^-12 ≈ 0.00049, under 0.05 / 2.
    expect(trainingVerdict(summaryOf({ validation: answered(72, 36), eval: answered(119, 40) }, { validation: answered(72, 36), eval: answered(119, 52) }), ['validation', 'eval'])).toBe(
      "GRPO's greedy held-out success: validation 50.0%, eval 43.7%\nChange from SFT to GRPO: validation +0.0 pts (0 gained, 0 lost), eval +10.1 pts (12 gained, 0 lost)" +
        ' — GRPO improved on the SFT checkpoint beyond chance on eval (p = 0.00049) (exact McNemar test on the same questions, p < 0.025 per split).',
    );
  });
  it('does not call a change of a question or two an improvement', () => {
    // Found in the demo: validation_unseen_db +1.7 and eval -0.8 points averaged to "GRPO improved on the SFT checkpoint".
    const line = trainingVerdict(
      summaryOf({ unseen: answered(119, [0, 1, 2, 3, 4, 5, 6, 7, 8]), eval: answered(119, 97) }, { unseen: answered(119, [0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12]), eval: answered(119, 96) }),
      ['unseen', 'eval'],
    );
    expect(line).toContain('unseen +1.7 pts (3 gained, 1 lost), eval -0.8 pts (0 gained, 1 lost)');
    expect(line).toContain('no split changed beyond chance');
    expect(line).toContain('GRPO did NOT measurably improve');
  });
  it('says when GRPO did worse beyond chance, and when the splits disagree', () => {
    const worse = trainingVerdict(summaryOf({ eval: answered(119, 60) }, { eval: answered(119, 40) }), ['eval']);
    expect(worse).toContain('GRPO did worse than the SFT checkpoint beyond chance on eval');
    const mixed = trainingVerdict(summaryOf({ a: answered(119, 60), b: answered(119, 20) }, { a: answered(119, 40), b: answered(119, 40) }), ['a', 'b']);
    expect(mixed).toContain('mixed: GRPO did better than SFT on b');
    expect(mixed).toContain('and worse on a');
  });
  it('without per-question results (a run from before them) gives the mean change and says there is no test', () => {
    expect(trainingVerdict(summaryOf({ validation: split(0.5, 72), eval: split(0.4, 119) }, { validation: split(0.6, 72), eval: split(0.35, 119) }), ['validation', 'eval'])).toBe(
      "GRPO's greedy held-out success: validation 60.0%, eval 35.0%\nChange from SFT to GRPO: validation +10.0 pts, eval -5.0 pts" +
        " — mean +2.5 pts; this run's evaluations did not record per-question results, so there is no significance test.",
    );
  });
  it('does not compare evaluations of different question counts (a run resumed with another eval.episodes)', () => {
    // Found by a run resumed with eval.episodes 226: the line claimed +5.3 points from 119 questions to 226.
    const line = trainingVerdict(summaryOf({ validation: split(0.792, 72), unseen: split(0.076, 119) }, { validation: split(0.778, 72), unseen: split(0.128, 226) }), ['validation', 'unseen']);
    expect(line).toContain('validation -1.4 pts, unseen not comparable (119 questions after SFT, 226 after GRPO)');
    expect(line).toContain('mean -1.4 pts');
    expect(trainingVerdict(summaryOf({ unseen: split(0.076, 119) }, { unseen: split(0.128, 226) }), ['unseen'])).toContain('no split was evaluated on the same questions');
  });
  it('names a split missing from one of the evaluations instead of counting it as 0%', () => {
    expect(trainingVerdict(summaryOf({ validation: split(0.5, 72) }, { validation: split(0.5, 72), eval: split(0.3, 119) }), ['validation', 'eval'])).toContain('eval not evaluated after SFT');
  });
});

describe('splitChanges', () => {
  const result = (correct: boolean[]): SplitResult => ({ success: correct.filter(Boolean).length / correct.length, meanReturn: 0, episodes: correct.length, correct });
  it('pairs the questions of each split evaluated on the same questions, as data', () => {
    const changes = splitChanges({ a: result([true, false, false, true]) }, { a: result([true, true, true, false]) }, ['a']);
    expect(changes).toEqual([{ split: 'a', kind: 'tested', points: 25, paired: { gained: 2, lost: 1, pValue: 1 } }]);
  });
  it('names a missing split, different question counts, and results without per-question verdicts', () => {
    const noPairs: SplitResult = { success: 0.5, meanReturn: 0, episodes: 4 };
    expect(splitChanges({ a: noPairs, b: noPairs, c: noPairs }, { b: { ...noPairs, episodes: 8 }, c: { ...noPairs, success: 0.75 }, d: noPairs }, ['a', 'b', 'c', 'd'])).toEqual([
      { split: 'a', kind: 'missing', missingIn: 'after' },
      { split: 'b', kind: 'incomparable', questionsBefore: 4, questionsAfter: 8 },
      { split: 'c', kind: 'untested', points: 25 },
      { split: 'd', kind: 'missing', missingIn: 'before' },
    ]);
  });
});
