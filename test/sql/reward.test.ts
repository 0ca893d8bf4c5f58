import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REWARD_CONFIG,
  afterEndReward,
  cardinalityScore,
  cellOverlapF1,
  numericRangeScore,
  progressPotential,
  resolveRewardConfig,
  stepReward,
  totalReward,
  type StepOutcome,
} from '../../envs/sql/reward/index.js';

const config = resolveRewardConfig();
const weights = config.potentialWeights;
const ran = (over: Partial<StepOutcome> = {}): StepOutcome => ({ ran: true, repeated: false, phiBefore: 0, phiAfter: 0, seenBefore: 0, seenAfter: 0, ...over });

describe('RewardConfig', () => {
  it('defaults to the seed constants', () => {
    expect(DEFAULT_REWARD_CONFIG).toMatchObject({ execOk: 0.02, newInfo: 0.01, repeat: 0.03, stepCost: 0.02, progressScale: 0.15, correct: 1, wrong: 0, outOfBudgetPenalty: 0 });
    expect(DEFAULT_REWARD_CONFIG.operationalClip).toEqual([-0.1, 0.15]);
    expect(DEFAULT_REWARD_CONFIG.potentialWeights).toEqual({ cardinality: 0.25, valueOverlap: 0.5, numericRange: 0.25 });
  });

  it('merges overrides, nested weights field by field', () => {
    const merged = resolveRewardConfig({ stepCost: 0, potentialWeights: { cardinality: 0, valueOverlap: 1, numericRange: 0 } });
    expect(merged.stepCost).toBe(0);
    expect(merged.execOk).toBe(0.02);
    expect(merged.potentialWeights.valueOverlap).toBe(1);
  });
});

describe('operational reward', () => {
  it.each<[string, Partial<StepOutcome>, number]>([
    ['an action that ran', {}, 0],
    ['new information (novelty is shaping, not operational)', { seenAfter: 1 }, 0],
    ['an error', { ran: false }, -0.02],
    ['a repeated action', { repeated: true }, -0.03],
    ['a repeated error', { ran: false, repeated: true }, -0.05],
  ])('%s', (_label, outcome, expected) => {
    expect(stepReward(ran(outcome), config).operational).toBeCloseTo(expected, 12);
  });

  it('is clipped to operationalClip', () => {
    const harsh = resolveRewardConfig({ repeat: 1 });
    expect(stepReward(ran({ repeated: true }), harsh).operational).toBe(-0.1);
    const generous = resolveRewardConfig({ execOk: 1 });
    expect(stepReward(ran(), generous).operational).toBe(0.15);
  });
});

describe('terminal reward', () => {
  it('pays correct / wrong / out of budget', () => {
    expect(stepReward(ran({ terminal: 'correct' }), config).correctness).toBe(1);
    expect(stepReward(ran({ terminal: 'wrong' }), config).correctness).toBe(0);
    expect(stepReward(ran({ terminal: 'out_of_budget' }), config).correctness).toBe(-0);
    expect(stepReward(ran({ terminal: 'out_of_budget' }), resolveRewardConfig({ outOfBudgetPenalty: 0.5 })).correctness).toBe(-0.5);
  });

  it('charges steps after the end', () => {
    expect(totalReward(afterEndReward(config))).toBe(-0.1);
  });
});

describe('progress potential Φ', () => {
  const gold = [['Joe', 52], ['Ann', 41]];

  it('is 1 for the gold result and in [0, 1] otherwise', () => {
    expect(progressPotential(gold, gold, weights).phi).toBe(1);
    expect(progressPotential([[41, 'Ann'], [52, 'Joe']], gold, weights).phi).toBe(1);
    for (const pred of [[], [['x']], [[1e9]], [[null, null, null]]]) {
      const phi = progressPotential(pred, gold, weights).phi;
      expect(phi).toBeGreaterThanOrEqual(0);
      expect(phi).toBeLessThan(1);
    }
  });

  it('does not pay over-retrieval: SELECT * scores below the exact columns', () => {
    const selectStar = [['Joe', 52, 'NL', 1, 2, 3], ['Ann', 41, 'FR', 4, 5, 6]];
    expect(progressPotential(selectStar, gold, weights).phi).toBeLessThan(progressPotential(gold, gold, weights).phi);
    expect(cellOverlapF1(['a', 'b', 'x', 'y'], ['a', 'b'])).toBeCloseTo(2 / 3, 10);
  });

  it('has the documented parts', () => {
    expect(cardinalityScore(5, 10)).toBe(0.5);
    expect(cardinalityScore(0, 0)).toBe(1);
    expect(numericRangeScore([10, 20], [10, 20])).toBe(1);
    expect(numericRangeScore([10, 20], [])).toBe(0);
    expect(numericRangeScore([], [])).toBe(1);
    expect(numericRangeScore([0, 10], [0, 20])).toBeCloseTo(0.75, 10);
  });
});

describe('shaping', () => {
  /**
   * Return of an episode of successful, non-repeated steps: `phis` the Φ after each query, `fresh`
   * whether each step showed something new; the last step ends the episode (both potentials 0).
   */
  function episodeReturn(steps: { phi: number; fresh: boolean }[], terminal?: StepOutcome['terminal']): { total: number; progress: number } {
    let phi = 0;
    let seen = 0;
    let total = 0;
    let progress = 0;
    steps.forEach((s, i) => {
      const last = i === steps.length - 1;
      const seenAfter = last ? 0 : seen + (s.fresh ? 1 : 0);
      const phiAfter = last ? 0 : s.phi;
      const c = stepReward(ran({ phiBefore: phi, phiAfter, seenBefore: seen, seenAfter, ...(last && terminal ? { terminal } : {}) }), config);
      total += totalReward(c);
      progress += c.progress;
      phi = phiAfter;
      seen = seenAfter;
    });
    return { total, progress };
  }

  it('pays progress and novelty during the episode', () => {
    const c = stepReward(ran({ phiBefore: 0.2, phiAfter: 0.7, seenBefore: 1, seenAfter: 2 }), config);
    expect(c.progress).toBeCloseTo(0.15 * 0.5 + 0.01, 12);
  });

  it('telescopes to zero over every episode, whatever the path', () => {
    const paths = [[0.2, 0.9, 0.4, 0.7], [0.7], [1, 0, 1, 0, 0.7], [0.5, 0.5, 0.7]];
    for (const path of paths) {
      const { progress } = episodeReturn([...path.map((phi) => ({ phi, fresh: true })), { phi: 0, fresh: false }], 'wrong');
      expect(progress).toBeCloseTo(0, 12);
    }
  });

  it('never pays a failing episode: the floor is an immediate wrong answer (the bug sqlenv validate found)', () => {
    // Before: a near-gold query kept 0.15·Φ and each new table +0.01 even without an answer.
    const explore = Array.from({ length: 9 }, (_, i) => ({ phi: i === 8 ? 0.9 : 0.2, fresh: true }));
    expect(episodeReturn([...explore, { phi: 0.9, fresh: false }], 'out_of_budget').total).toBeCloseTo(0, 12);
    expect(episodeReturn([...explore, { phi: 0, fresh: false }], 'wrong').total).toBeCloseTo(0, 12);
    expect(episodeReturn([{ phi: 0, fresh: false }], 'wrong').total).toBe(0);
    // A correct answer earns `correct`, however much was explored first.
    expect(episodeReturn([...explore, { phi: 1, fresh: false }], 'correct').total).toBeCloseTo(1, 12);
  });

  it('cannot be farmed by alternating a good and a bad query', () => {
    const good = { phi: 1, key: 'good' };
    const bad = { phi: 0, key: 'bad' };
    const play = (queries: { phi: number; key: string }[]) => {
      const seenKeys = new Set<string>();
      let phi = 0;
      let total = 0;
      queries.forEach((q, i) => {
        const last = i === queries.length - 1;
        const repeated = seenKeys.has(q.key);
        const seenBefore = seenKeys.size;
        seenKeys.add(q.key);
        const c = stepReward(
          { ran: true, repeated, phiBefore: phi, phiAfter: last ? 0 : q.phi, seenBefore, seenAfter: last ? 0 : seenKeys.size, ...(last ? { terminal: 'out_of_budget' as const } : {}) },
          config,
        );
        total += totalReward(c);
        phi = last ? 0 : q.phi;
      });
      return total;
    };
    const direct = play([good, bad]);
    const alternating = play([good, bad, good, bad, good, bad, good, bad, good, bad]);
    expect(alternating).toBeLessThan(direct);
    expect(direct).toBeLessThanOrEqual(0);
  });
});
