import { describe, expect, it } from 'vitest';
import { majorityVote, passAtK, sampledScores } from '../../src/train/eval/pass-at-k.js';

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
