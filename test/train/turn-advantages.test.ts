import { describe, expect, it } from 'vitest';
import { computeAdvantages } from '../../src/train/math/advantages.js';
import { rewardsToGo, turnAdvantages } from '../../src/train/math/turn-advantages.js';

describe('rewardsToGo', () => {
  it('discounts later rewards by γ per turn', () => {
    expect(rewardsToGo([0.1, 0, 1], 1)).toEqual([1.1, 1, 1]);
    expect(rewardsToGo([0.1, 0, 1], 0)).toEqual([0.1, 0, 1]);
    expect(rewardsToGo([0.1, 0, 1], 0.5)).toEqual([0.35, 0.5, 1]);
    expect(rewardsToGo([], 0.5)).toEqual([]);
  });

  it('refuses a discount outside [0, 1]', () => {
    expect(() => rewardsToGo([1], 1.5)).toThrow(/\[0, 1\]/);
    expect(() => rewardsToGo([1], Number.NaN)).toThrow(/\[0, 1\]/);
  });
});

describe('turnAdvantages', () => {
  it('γ 0: a query that found the gold result is credited although its answer failed', () => {
    // Episode 0 queried well (0.15) then answered wrong (0); episode 1 queried badly (0.05) then answered right (1).
    const a = turnAdvantages([[[0.15, 0], [0.05, 1]]], { estimator: 'dr_grpo' }, { discount: 0 });
    expect(a[0]![0]![0]).toBeCloseTo(0.05, 12);
    expect(a[0]![1]![0]).toBeCloseTo(-0.05, 12);
    expect(a[0]![0]![1]).toBeCloseTo(-0.5, 12);
    expect(a[0]![1]![1]).toBeCloseTo(0.5, 12);
  });

  it('γ 1: the first turn gets exactly the episode-level advantage', () => {
    const groups = [[[0.1, 1], [0.1, 0], [-0.02, 0], [0.2, 1]], [[0, 0], [0.05, 1], [0.05, 0], [0, 0]]];
    const options = { estimator: 'grpo' as const, std: 'sample' as const, epsilon: 1e-4 };
    const turn = turnAdvantages(groups, options, { discount: 1 });
    const episode = computeAdvantages(groups.map((g) => g.map((ep) => ep[0]! + ep[1]!)), options);
    turn.forEach((g, i) => g.forEach((ep, k) => expect(ep[0]).toBeCloseTo(episode[i]![k]!, 12)));
  });

  it('compares turn t only with the episodes that reached turn t; a turn reached by one episode gets 0', () => {
    // Episode 1 ended after one turn; episode 2 took a third turn nobody else took.
    const a = turnAdvantages([[[0, 1], [1], [0, 0, 1]]], { estimator: 'dr_grpo' }, { discount: 0 });
    expect(a[0]!.map((ep) => ep.length)).toEqual([2, 1, 3]);
    expect(a[0]![0]![0]).toBeCloseTo(-1 / 3, 12);
    expect(a[0]![1]![0]).toBeCloseTo(2 / 3, 12);
    expect(a[0]![0]![1]).toBeCloseTo(0.5, 12); // turn 1: [1, 0], mean 0.5
    expect(a[0]![2]![1]).toBeCloseTo(-0.5, 12);
    expect(a[0]![2]![2]).toBe(0);
  });

  it('state keys: an answer competes only with answers given after the same tool results', () => {
    // Episodes 0 and 1 saw the gold result and answered right / wrong; 2 and 3 saw the same wrong result.
    const rewards = [[[0.15, 1], [0.15, 0], [0.05, 0], [0.05, 0]]];
    const keys = [[['', 'gold'], ['', 'gold'], ['', 'zero'], ['', 'zero']]];
    const a = turnAdvantages(rewards, { estimator: 'dr_grpo' }, { discount: 0, stateKeys: keys });
    expect(a[0]!.map((ep) => ep[1])).toEqual([0.5, -0.5, 0, 0]); // answering a wrong query right was impossible: no blame
    expect(a[0]![0]![0]).toBeCloseTo(0.05, 12); // turn 0 shares one state: the whole group
    const byIndex = turnAdvantages(rewards, { estimator: 'dr_grpo' }, { discount: 0 });
    expect(byIndex[0]!.map((ep) => ep[1])).toEqual([0.75, -0.25, -0.25, -0.25]);
    expect(() => turnAdvantages(rewards, { estimator: 'dr_grpo' }, { discount: 0, stateKeys: [[['']]] })).toThrow(/stateKeys\[0\]\[1\]\[0\] is missing/);
  });

  it('batch estimators whiten over every turn of the batch', () => {
    const a = turnAdvantages([[[1, 0], [0, 0]], [[0, 1], [0, 0]]], { estimator: 'reinforce_pp', std: 'population', epsilon: 0 }, { discount: 0 });
    const flat = a.flat(2);
    expect(flat.reduce((x, y) => x + y, 0)).toBeCloseTo(0, 12);
    expect(Math.sqrt(flat.reduce((x, y) => x + y * y, 0) / flat.length)).toBeCloseTo(1, 12);
  });

  it('rejects non-finite step rewards like the episode-level estimators', () => {
    expect(() => turnAdvantages([[[Number.NaN], [0]]], { estimator: 'grpo' }, { discount: 1 })).toThrow(/NaN/);
  });
});
