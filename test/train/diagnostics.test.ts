import { describe, expect, it } from 'vitest';
import { expectedDeadGroupRate, smallGroupWarning } from '../../src/train/diagnostics/dead-groups.js';
import { AlarmMonitor, alarmInputOf, type AlarmStepInput } from '../../src/train/diagnostics/alarms.js';
import { nonFiniteEntries } from '../../src/train/diagnostics/finite-guard.js';
import { learningRateAt } from '../../src/train/optim/lr-schedule.js';

describe('expectedDeadGroupRate', () => {
  it('is p^K + (1−p)^K', () => {
    expect(expectedDeadGroupRate(0.18, 2)).toBeCloseTo(0.18 ** 2 + 0.82 ** 2, 12);
    expect(expectedDeadGroupRate(0.18, 2)).toBeCloseTo(0.7048, 4);
    expect(expectedDeadGroupRate(0.5, 8)).toBeCloseTo(2 / 256, 12);
    expect(expectedDeadGroupRate(0, 4)).toBe(1);
    expect(() => expectedDeadGroupRate(1.5, 4)).toThrow(RangeError);
  });
});

describe('smallGroupWarning', () => {
  it('warns for K < 4, explains ±1 and prints the dead-group rate', () => {
    const w = smallGroupWarning(2, 0.18)!;
    expect(w).toMatch(/K = 2 < 4/);
    expect(w).toMatch(/±1/);
    expect(w).toMatch(/70\.5%/);
    expect(smallGroupWarning(1)).toMatch(/zero variance/);
    expect(smallGroupWarning(4)).toBeUndefined();
  });
});

describe('AlarmMonitor', () => {
  const quiet: Omit<AlarmStepInput, 'step'> = { rewardMean: 0.3, fracRewardZeroStd: 0, fracIdenticalGroups: 0, groups: 8, malformedCallRate: 0, kl: 0.01 };

  it('raises reward_flat after N flat steps, not before', () => {
    const m = new AlarmMonitor({ rewardFlatSteps: 5 });
    const kinds = [1, 2, 3, 4, 5].map((step) => m.observe({ ...quiet, step }).map((a) => a.kind));
    expect(kinds.slice(0, 4).flat()).toEqual([]);
    expect(kinds[4]).toEqual(['reward_flat']);
  });

  it('does not flag a moving reward', () => {
    const m = new AlarmMonitor({ rewardFlatSteps: 5 });
    const all = [1, 2, 3, 4, 5, 6].flatMap((step) => m.observe({ ...quiet, step, rewardMean: step * 0.1 }));
    expect(all).toEqual([]);
  });

  it('flags dead groups, identical completions and exploding KL', () => {
    const m = new AlarmMonitor();
    expect(m.observe({ ...quiet, step: 1, fracRewardZeroStd: 0.9 }).map((a) => a.kind)).toEqual(['zero_std_high']);
    expect(m.observe({ ...quiet, step: 2, fracIdenticalGroups: 0.75 }).map((a) => a.kind)).toEqual(['identical_completions']);
    expect(m.observe({ ...quiet, step: 3, kl: 0.02 })).toEqual([]);
    const kl = m.observe({ ...quiet, step: 4, kl: 1.5 });
    expect(kl.map((a) => a.kind)).toEqual(['kl_exploding']);
    expect(kl[0]!.message).toMatch(/beta/);
  });

  it('judges KL growth against the mean of the previous steps, not one noisy step', () => {
    // The demo's 30 GRPO steps of seed 0 (2026-11-29): a steady run whose step 13 measured 11× step 12 on its two questions.
    const steady = [0, 0.0008, 0.0019, 0.0031, 0.0054, 0.0065, 0.0083, 0.0141, 0.0701, 0.0289, 0.0215, 0.0051, 0.056, 0.0125, 0.033, 0.0164,
      0.0157, 0.0361, 0.0466, 0.016, 0.0209, 0.0842, 0.0194, 0.0296, 0.0116, 0.0094, 0.011, 0.01, 0.0157, 0.0059];
    const m = new AlarmMonitor();
    expect(steady.flatMap((kl, i) => m.observe({ ...quiet, step: i + 1, rewardMean: i % 2, kl })).filter((a) => a.kind === 'kl_exploding')).toEqual([]);
    // A policy that runs away: ten times the recent mean and above 0.05, below klMax.
    const runaway = new AlarmMonitor();
    const raised = [0.01, 0.012, 0.009, 0.011, 0.013, 0.3].flatMap((kl, i) => runaway.observe({ ...quiet, step: i + 1, kl }));
    expect(raised.map((a) => [a.kind, a.step])).toEqual([['kl_exploding', 6]]);
    expect(raised[0]!.message).toMatch(/mean of the previous 5 steps 0\.0110/);
    // Before a window of steps is seen, only klMax judges.
    const early = new AlarmMonitor();
    expect([0.001, 0.3].flatMap((kl, i) => early.observe({ ...quiet, step: i + 1, kl }))).toEqual([]);
  });

  it('judges dead groups and identical completions over enough groups, not over one small step', () => {
    // Two groups a step (the demo's): one step with both groups equal is no evidence.
    const m = new AlarmMonitor();
    const two = { ...quiet, groups: 2 };
    // Both groups equal and identical at step 1, then one of two equal; the pooled 8 groups decide.
    const steps: [number, number][] = [[1, 1], [0.5, 0], [0.5, 0], [0.5, 0], [1, 1], [1, 1], [1, 1]];
    const raised = steps.map(([zero, identical], i) => m.observe({ ...two, step: i + 1, fracRewardZeroStd: zero, fracIdenticalGroups: identical }));
    // Steps 3–6 pool 6 of 8 zero-std groups (75%) and 4 of 8 identical (50%, not above): nothing yet.
    expect(raised.slice(0, 6).flat()).toEqual([]);
    // Steps 4–7: 7 of 8 zero-std, 6 of 8 identical.
    expect(raised[6]!.map((a) => a.kind)).toEqual(['zero_std_high', 'identical_completions']);
    expect(raised[6]![0]!.message).toMatch(/88% of the last 8 groups/);
    // alarmGroups 1 judges every step alone, as the monitor did before.
    expect(new AlarmMonitor({ alarmGroups: 1 }).observe({ ...two, step: 1, fracRewardZeroStd: 1 }).map((a) => a.kind)).toEqual(['zero_std_high']);
  });

  it('flags a rising share of malformed tool calls', () => {
    const m = new AlarmMonitor({ toolErrorWindow: 3 });
    const out = [0, 0, 0, 0.5, 0.6, 0.7].flatMap((rate, i) => m.observe({ ...quiet, step: i + 1, malformedCallRate: rate, rewardMean: i }));
    expect(out.map((a) => a.kind)).toEqual(['tool_errors_rising']);
    expect(out[0]!.message).toMatch(/malformed tool calls rose from 0% to 60%/);
  });

  it('reads a step\'s malformed calls, not its failed queries (a 90-step run on unseen databases: failed calls 64% → 84%, parse errors flat)', () => {
    const m = new AlarmMonitor({ toolErrorWindow: 3 });
    const steps = [0.64, 0.62, 0.66, 0.8, 0.84, 0.88].map((failed, i) => ({ reward: 0.1 * i, 'tools/failure_frequency': failed, 'tools/malformed_frequency': 0.03 }));
    expect(steps.flatMap((metrics, i) => m.observe(alarmInputOf(i + 1, metrics, 2)))).toEqual([]);
    expect(alarmInputOf(7, { 'tools/malformed_frequency': 0.25, kl: 0.1 }, 2)).toMatchObject({ step: 7, malformedCallRate: 0.25, kl: 0.1, groups: 2 });
  });

  it('does not repeat the same alarm every step', () => {
    const m = new AlarmMonitor({ rewardFlatSteps: 10 });
    const out = [1, 2, 3].flatMap((step) => m.observe({ ...quiet, step, rewardMean: step, fracRewardZeroStd: 1 }));
    expect(out.length).toBe(1);
  });
});

describe('nonFiniteEntries', () => {
  it('names the bad scalars and the first bad index of arrays', () => {
    expect(nonFiniteEntries({ loss: 1, g: new Float32Array([0, 1]) })).toEqual([]);
    expect(nonFiniteEntries({ loss: Number.NaN, g: new Float32Array([0, Infinity, NaN]) })).toEqual(['loss', 'g[1]']);
  });
});

describe('LR schedule', () => {
  it('warms up linearly, then decays', () => {
    expect(learningRateAt(0, { lr: 1e-3, warmupSteps: 4 })).toBeCloseTo(2.5e-4, 12);
    expect(learningRateAt(3, { lr: 1e-3, warmupSteps: 4 })).toBeCloseTo(1e-3, 12);
    expect(learningRateAt(100, { lr: 1e-3, warmupSteps: 4 })).toBe(1e-3);
    expect(learningRateAt(9, { lr: 1e-3, totalSteps: 10, decay: 'linear' })).toBeCloseTo(1e-4, 12);
    expect(learningRateAt(5, { lr: 1e-3, totalSteps: 10, decay: 'cosine' })).toBeCloseTo(5e-4, 12);
  });
});
