import { describe, expect, it } from 'vitest';
import {
  AdvantageInputError,
  computeAdvantages,
  episodeReward,
  isZeroVarianceGroup,
  standardDeviation,
} from '../../src/train/math/advantages.js';

function close(actual: number[][], expected: number[][], digits = 6): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((g, i) => g.forEach((a, k) => expect(a).toBeCloseTo(expected[i]![k]!, digits)));
}

describe('standardDeviation', () => {
  it('uses n−1 for sample and n for population', () => {
    expect(standardDeviation([1, 0, 0, 1], 'population')).toBeCloseTo(0.5, 12);
    expect(standardDeviation([1, 0, 0, 1], 'sample')).toBeCloseTo(Math.sqrt(1 / 3), 12);
    expect(standardDeviation([7], 'sample')).toBe(0);
  });
});

describe('computeAdvantages', () => {
  it('epsilon 0: a group of equal rewards gets advantage 0, not NaN, and rounding noise is not blown up to ±1', () => {
    // 0.1 + 0.2 style rounding: the mean of three 0.1s is not exactly 0.1, the centred values are ~1e-17.
    const groups = [[0.1, 0.1, 0.1], [1, 0, 0, 1]];
    for (const estimator of ['grpo', 'reinforce_pp', 'reinforce_pp_baseline'] as const) {
      const a = computeAdvantages([groups[0]!], { estimator, std: 'population', epsilon: 0 });
      expect(a.flat().every((v) => v === 0)).toBe(true);
    }
    const mixed = computeAdvantages(groups, { estimator: 'grpo', std: 'population', epsilon: 0 });
    expect(mixed[0]).toEqual([0, 0, 0]);
    expect(mixed[1]).toEqual([1, -1, -1, 1]);
  });

  it('grpo z-scores within each group (population std)', () => {
    close(computeAdvantages([[1, 0, 0, 1]], { estimator: 'grpo', std: 'population', epsilon: 0 }), [[1, -1, -1, 1]]);
  });

  it('grpo with sample std gives ±√3/2 for [1,0,0,1]', () => {
    const s = Math.sqrt(3) / 2;
    close(computeAdvantages([[1, 0, 0, 1]], { estimator: 'grpo', std: 'sample', epsilon: 0 }), [[s, -s, -s, s]]);
  });

  it('K = 2 z-scores are ±1 whatever the gap (the seed collapse)', () => {
    const a = computeAdvantages([[0.1, 0.2], [0, 1]], { estimator: 'grpo', std: 'population', epsilon: 0 });
    close(a, [[-1, 1], [-1, 1]]);
    const b = computeAdvantages([[0.1, 0.2]], { estimator: 'grpo', std: 'sample', epsilon: 0 });
    close(b, [[-Math.SQRT1_2, Math.SQRT1_2]]);
  });

  it('zero-variance groups get advantage exactly 0, not NaN', () => {
    const a = computeAdvantages([[0.5, 0.5, 0.5]], { estimator: 'grpo' });
    expect(a).toEqual([[0, 0, 0]]);
  });

  it('grpo with batch scale divides by the std of all rewards', () => {
    // centred [[.5,-.5],[0,0]]; population std of [1,0,0,0] = √0.1875
    const s = Math.sqrt(0.1875);
    close(computeAdvantages([[1, 0], [0, 0]], { estimator: 'grpo', scale: 'batch', std: 'population', epsilon: 0 }), [[0.5 / s, -0.5 / s], [0, 0]]);
  });

  it('dr_grpo only subtracts the group mean', () => {
    close(computeAdvantages([[1, 0, 0]], { estimator: 'dr_grpo' }), [[2 / 3, -1 / 3, -1 / 3]]);
  });

  it('rloo subtracts the mean of the other samples', () => {
    close(computeAdvantages([[1, 0, 0], [3, 1, 2]], { estimator: 'rloo' }), [[1, -0.5, -0.5], [1.5, -1.5, 0]]);
    expect(computeAdvantages([[5]], { estimator: 'rloo' })).toEqual([[0]]);
  });

  describe("scale 'none' | 'group' for dr_grpo and rloo (hand-computed)", () => {
    // Two groups: [1, 0, 0] (mean 1/3) and [3, 1, 2] (mean 2).
    // Raw-reward std of group 1: sample √(2/3 / 2) = 1/√3, population √(2/3 / 3) = √2/3;
    // of group 2: sample √(2/2) = 1, population √(2/3).
    const groups = [[1, 0, 0], [3, 1, 2]];
    const r3 = Math.sqrt(3), r2 = Math.sqrt(2), r23 = Math.sqrt(2 / 3);

    it("dr_grpo 'none' is r − mean_group (also the default)", () => {
      const expected = [[2 / 3, -1 / 3, -1 / 3], [1, -1, 0]];
      close(computeAdvantages(groups, { estimator: 'dr_grpo', scale: 'none' }), expected, 12);
      close(computeAdvantages(groups, { estimator: 'dr_grpo' }), expected, 12);
    });

    it("dr_grpo 'group' divides the centred rewards by the group's std (+ ε)", () => {
      close(computeAdvantages(groups, { estimator: 'dr_grpo', scale: 'group', std: 'sample', epsilon: 0 }), [[(2 / 3) * r3, (-1 / 3) * r3, (-1 / 3) * r3], [1, -1, 0]], 12);
      close(computeAdvantages(groups, { estimator: 'dr_grpo', scale: 'group', std: 'population', epsilon: 0 }), [[r2, -1 / r2, -1 / r2], [1 / r23, -1 / r23, 0]], 12);
      // ε is added to the std: group 2 (sample std 1) with ε = 0.5 → ±1/1.5.
      close(computeAdvantages([[3, 1, 2]], { estimator: 'dr_grpo', scale: 'group', std: 'sample', epsilon: 0.5 }), [[1 / 1.5, -1 / 1.5, 0]], 12);
      // Same as grpo's default scaling.
      close(computeAdvantages(groups, { estimator: 'dr_grpo', scale: 'group', epsilon: 0 }), computeAdvantages(groups, { estimator: 'grpo', epsilon: 0 }), 12);
    });

    it("rloo 'none' is r − mean of the other K − 1 (also the default)", () => {
      // group 1: 1 − 0, 0 − 0.5, 0 − 0.5; group 2: 3 − 1.5, 1 − 2.5, 2 − 2
      const expected = [[1, -0.5, -0.5], [1.5, -1.5, 0]];
      close(computeAdvantages(groups, { estimator: 'rloo', scale: 'none' }), expected, 12);
      close(computeAdvantages(groups, { estimator: 'rloo' }), expected, 12);
    });

    it("rloo 'group' divides the leave-one-out advantages by the std of the group's raw rewards", () => {
      close(computeAdvantages(groups, { estimator: 'rloo', scale: 'group', std: 'sample', epsilon: 0 }), [[r3, -0.5 * r3, -0.5 * r3], [1.5, -1.5, 0]], 12);
      close(computeAdvantages(groups, { estimator: 'rloo', scale: 'group', std: 'population', epsilon: 0 }), [[3 / r2, -1.5 / r2, -1.5 / r2], [1.5 / r23, -1.5 / r23, 0]], 12);
      // A zero-variance group stays exactly 0 with the default ε.
      expect(computeAdvantages([[2, 2, 2]], { estimator: 'rloo', scale: 'group' })).toEqual([[0, 0, 0]]);
    });
  });

  it('reinforce_pp whitens raw rewards over the batch', () => {
    const m = 0.25;
    const s = Math.sqrt(0.1875);
    close(computeAdvantages([[1, 0], [0, 0]], { estimator: 'reinforce_pp', std: 'population', epsilon: 0 }), [
      [(1 - m) / s, -m / s],
      [-m / s, -m / s],
    ]);
  });

  it('reinforce_pp_baseline subtracts group means then whitens over the batch', () => {
    const s = Math.sqrt(0.125); // population std of [.5, -.5, 0, 0]
    close(computeAdvantages([[1, 0], [0, 0]], { estimator: 'reinforce_pp_baseline', std: 'population', epsilon: 0 }), [
      [0.5 / s, -0.5 / s],
      [0, 0],
    ]);
  });

  it('clips advantages after scaling', () => {
    const a = computeAdvantages([[10, 0, 0, 0]], { estimator: 'dr_grpo', clip: 2 });
    close(a, [[2, -2, -2, -2]]);
  });

  it('epsilon keeps tiny-variance groups finite', () => {
    const a = computeAdvantages([[1, 1 + 1e-9]], { estimator: 'grpo', epsilon: 1e-4 });
    for (const v of a[0]!) expect(Math.abs(v)).toBeLessThan(1e-4);
  });

  it('rejects empty, ragged-empty and non-finite input with actionable errors', () => {
    expect(() => computeAdvantages([], { estimator: 'grpo' })).toThrow(AdvantageInputError);
    expect(() => computeAdvantages([[]], { estimator: 'grpo' })).toThrow(/K ≥ 1/);
    expect(() => computeAdvantages([[1, Number.NaN]], { estimator: 'grpo' })).toThrow(/reward \[0\]\[1\]/);
    expect(() => computeAdvantages([[1]], { estimator: 'grpo', clip: 0 })).toThrow(/clip/);
  });
});

describe('episodeReward', () => {
  it('takes the final step reward or the sum', () => {
    expect(episodeReward([0.02, 0.03, 1], 'final')).toBe(1);
    expect(episodeReward([0.02, 0.03, 1], 'sum')).toBeCloseTo(1.05, 12);
    expect(episodeReward([], 'sum')).toBe(0);
  });
});

describe('isZeroVarianceGroup', () => {
  it('detects all-equal groups', () => {
    expect(isZeroVarianceGroup([0, 0, 0])).toBe(true);
    expect(isZeroVarianceGroup([0, 0, 1])).toBe(false);
  });
});
