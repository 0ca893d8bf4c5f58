import { describe, expect, it } from 'vitest';
import { memoGoldProfile, memoHashResult, memoMatchesGold, memoPhi } from '../../envs/sql/episode/result-memo.js';
import { hashResult } from '../../envs/sql/episode/result-hash.js';
import { DEFAULT_REWARD_CONFIG, profileGold, progressPotential } from '../../envs/sql/index.js';
import { DEFAULT_JUDGE_CONFIG } from '../../envs/sql/judge/judge-config.js';

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

  it('remember whether rows are the gold result per gold rows and judge settings', () => {
    const goldAnswer = { sql: 'SELECT name, age FROM p', rows: gold };
    const shuffled = [['Ann', 41], ['Joe', 52]];
    const judge = { ...DEFAULT_JUDGE_CONFIG };
    expect(memoMatchesGold(shuffled, goldAnswer, judge)).toBe(true);
    // Another episode of the question: a new GoldAnswer over the same cached gold rows hits the memo.
    expect(memoMatchesGold(shuffled, { ...goldAnswer }, judge)).toBe(true);
    // Another gold (same SQL text, other rows) or other judge settings: computed afresh.
    expect(memoMatchesGold(shuffled, { sql: goldAnswer.sql, rows: [['Joe', 52]] }, judge)).toBe(false);
    const doubled = [['Ann', 41], ['Ann', 41], ['Joe', 52]];
    expect(memoMatchesGold(doubled, goldAnswer, judge)).toBe(false);
    expect(memoMatchesGold(doubled, goldAnswer, { ...judge, acceptDistinctRows: true })).toBe(true);
  });
});
