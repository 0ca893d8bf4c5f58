import { describe, expect, it } from 'vitest';
import { memoGoldProfile, memoHashResult, memoPhi } from '../../envs/sql/episode/result-memo.js';
import { hashResult } from '../../envs/sql/episode/result-hash.js';
import { DEFAULT_REWARD_CONFIG, profileGold, progressPotential } from '../../envs/sql/index.js';

describe('result memos (for results answered from the query cache)', () => {
  const gold = [['Joe', 52], ['Ann', 41]];
  const weights = DEFAULT_REWARD_CONFIG.potentialWeights;

  it('give what the functions give, for the same arrays and for equal fresh ones', () => {
    const rows = [['Joe', 52], ['Bob', 7]];
    const columns = ['name', 'age'];
    expect(memoHashResult(columns, rows)).toBe(hashResult(columns, rows));
    expect(memoHashResult(columns, rows)).toBe(hashResult(columns, rows));
    // Other columns with the same rows: not the remembered hash.
    expect(memoHashResult(['n', 'a'], rows)).toBe(hashResult(['n', 'a'], rows));
    const profile = memoGoldProfile(gold);
    expect(memoGoldProfile(gold)).toBe(profile);
    expect(profile).toEqual(profileGold(gold));
    const phi = progressPotential(rows, gold, weights).phi;
    expect(memoPhi(rows, profile, weights)).toBe(phi);
    expect(memoPhi(rows, profile, weights)).toBe(phi);
    expect(memoPhi([...rows], profile, weights)).toBe(phi);
    expect(memoPhi(gold, profile, weights)).toBe(1);
    const other = { ...weights, cardinality: 0 };
    expect(memoPhi(rows, profile, other)).toBe(progressPotential(rows, gold, other).phi);
  });
});
