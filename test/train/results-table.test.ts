import { describe, expect, it } from 'vitest';
import { percent, resultsTable, type ResultRow } from '../../src/train/eval/results-table.js';

describe('percent', () => {
  it('prints a share as a percentage with one decimal, rounding half away as toFixed does', () => {
    expect(percent(0.4567)).toBe('45.7%');
    expect(percent(1)).toBe('100.0%');
    expect(percent(0)).toBe('0.0%');
  });
});

describe('resultsTable', () => {
  const rows: ResultRow[] = [
    { policy: 'oracle (upper bound)', bySplit: { validation: { success: 1, meanReturn: 1.17, episodes: 72 }, eval: { success: 1, meanReturn: 1.1704, episodes: 119 } } },
    {
      policy: 'model + SFT',
      bySplit: { validation: { success: 0.5, meanReturn: 0.25, episodes: 72, sampled: { k: 4, questions: 20, passAt1: 0.4, passAtK: 0.65, majority: 0.5, greedy: 0.5, missedButSampled: 3, ceiling: 0.65 } } },
    },
  ];
  it('prints success and mean return per split, aligned, with a dash where a row has no result', () => {
    expect(resultsTable(rows, ['validation', 'eval'])).toBe([
      '| policy               | validation success | validation return | eval success | eval return |',
      '| -------------------- | ------------------ | ----------------- | ------------ | ----------- |',
      '| oracle (upper bound) | 100.0%             | 1.170             | 100.0%       | 1.170       |',
      '| model + SFT          | 50.0%              | 0.250             | —            | —           |',
    ].join('\n'));
  });
  it('with k > 1 prints greedy success and pass@k, a dash where a split was not sampled', () => {
    expect(resultsTable(rows, ['validation'], 4)).toBe([
      '| policy               | validation greedy | validation pass@4 |',
      '| -------------------- | ----------------- | ----------------- |',
      '| oracle (upper bound) | 100.0%            | —                 |',
      '| model + SFT          | 50.0%             | 65.0%             |',
    ].join('\n'));
  });
});
