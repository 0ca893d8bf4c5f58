import { describe, expect, it } from 'vitest';
import { majorityVote, passAtK, passAtKCurve, sampledScores, sharpeningHeadroom } from '../../src/train/eval/pass-at-k.js';

/** pass@k by enumerating every k-subset of n samples: the definition the estimator must equal. */
function bruteForce(n: number, c: number, k: number): number {
  let hit = 0;
  let total = 0;
  const rec = (start: number, left: number, anyCorrect: boolean) => {
    if (left === 0) { total++; if (anyCorrect) hit++; return; }
    for (let i = start; i <= n - left; i++) rec(i + 1, left - 1, anyCorrect || i < c);
  };
  rec(0, k, false);
  return hit / total;
}

describe('passAtK', () => {
  it('equals the share of k-subsets holding a correct sample', () => {
    for (const n of [1, 4, 8]) for (let c = 0; c <= n; c++) for (let k = 1; k <= n; k++) {
      expect(passAtK(n, c, k), `n=${n} c=${c} k=${k}`).toBeCloseTo(bruteForce(n, c, k), 12);
    }
  });

  it('is c/n at k = 1, 0 without a correct sample, 1 when every k-subset must hold one', () => {
    expect(passAtK(8, 3, 1)).toBeCloseTo(3 / 8, 12);
    expect(passAtK(8, 0, 8)).toBe(0);
    expect(passAtK(8, 1, 8)).toBe(1);
    expect(passAtK(8, 6, 3)).toBe(1);
  });

  it('refuses impossible counts', () => {
    expect(() => passAtK(4, 5, 1)).toThrow(RangeError);
    expect(() => passAtK(4, 1, 5)).toThrow(RangeError);
    expect(() => passAtK(0, 0, 1)).toThrow(RangeError);
  });
});

describe('majorityVote', () => {
  it('follows the most frequent answer, the first seen on a tie, and ignores samples that never answered', () => {
    expect(majorityVote([{ correct: false, answer: 'a' }, { correct: true, answer: 'b' }, { correct: true, answer: 'b' }])).toBe(true);
    expect(majorityVote([{ correct: false, answer: 'a' }, { correct: true, answer: 'b' }])).toBe(false);
    expect(majorityVote([{ correct: false }, { correct: false }, { correct: true, answer: 'b' }])).toBe(true);
    expect(majorityVote([{ correct: false }, { correct: false }])).toBe(false);
  });
});

describe('sampledScores', () => {
  it('averages pass@1, pass@k and the vote over questions', () => {
    const s = sampledScores([
      [{ correct: true, answer: 'x' }, { correct: false, answer: 'y' }, { correct: true, answer: 'x' }, { correct: false, answer: 'z' }],
      [{ correct: false, answer: 'y' }, { correct: false, answer: 'y' }, { correct: false }, { correct: false, answer: 'z' }],
    ], 2);
    expect(s.questions).toBe(2);
    expect(s.samples).toBe(4);
    expect(s.passAt1).toBeCloseTo((2 / 4 + 0) / 2, 12);
    expect(s.passAtK).toBeCloseTo((passAtK(4, 2, 2) + 0) / 2, 12);
    expect(s.majority).toBe(0.5);
  });

  it('needs the same sample count for every question', () => {
    expect(() => sampledScores([[{ correct: true }], [{ correct: true }, { correct: false }]], 1)).toThrow(RangeError);
  });
});

describe('passAtKCurve', () => {
  it('averages pass@k over questions at powers of two and at n, rising to the share with any correct sample', () => {
    const curve = passAtKCurve([0, 2, 4], 4);
    expect(curve.map((p) => p.k)).toEqual([1, 2, 4]);
    expect(curve[0]!.passAtK).toBeCloseTo(0.5, 12);
    expect(curve[1]!.passAtK).toBeCloseTo((0 + (1 - 1 / 6) + 1) / 3, 12);
    expect(curve[2]!.passAtK).toBeCloseTo(2 / 3, 12);
    expect(passAtKCurve([1, 0], 6).map((p) => p.k)).toEqual([1, 2, 4, 6]);
    expect(passAtKCurve([], 4)).toEqual([]);
  });

  it('comes with sampledScores, with the per-question counts', () => {
    const s = sampledScores([[{ correct: true }, { correct: false }], [{ correct: false }, { correct: false }]], 2);
    expect(s.correctPerQuestion).toEqual([1, 0]);
    expect(s.curve).toEqual([{ k: 1, passAtK: 0.25 }, { k: 2, passAtK: 0.5 }]);
  });
});

describe('sharpeningHeadroom', () => {
  it('counts what greedy misses but a sample finds, and what greedy finds but no sample does', () => {
    const h = sharpeningHeadroom([true, false, false, true], [3, 1, 0, 0]);
    expect(h).toEqual({ questions: 4, greedyRight: 2, missedButSampled: 1, rightButNeverSampled: 1, ceiling: 3 / 4 });
  });

  it('refuses greedy and sampled episodes of different questions', () => {
    expect(() => sharpeningHeadroom([true], [1, 0])).toThrow(/same questions/);
  });
});
