/**
 * The train-demo bench prints the sharpening ceiling after SFT (what sharpening the SFT policy could reach) beside
 * its table: what GRPO had to work with in each seed.
 */
import { describe, expect, it } from 'vitest';
import { ceilingLine } from '../../bench/train-demo.bench.js';

const sampled = (ceiling: number, missedButSampled: number) => ({ k: 4, questions: 20, passAt1: 0.5, passAtK: 0.7, majority: 0.6, greedy: 0.65, missedButSampled, ceiling });
const result = (validation: ReturnType<typeof sampled> | undefined) =>
  ({ summary: { evaluations: { sft: { validation: { success: 0.6, meanReturn: 0.6, episodes: 72, ...(validation ? { sampled: validation } : {}) } } } } }) as unknown as Parameters<typeof ceilingLine>[0][number];

describe('ceilingLine', () => {
  it("gives the mean ceiling over seeds and each seed's greedy misses that a sample answered", () => {
    const [line, blank] = ceilingLine([result(sampled(0.75, 2)), result(sampled(0.85, 3))], ['validation']);
    expect(line).toBe(
      'Sharpening ceiling after SFT, on the sampled questions (greedy success → greedy right or at least one of the samples right; per seed the questions greedy missed that a sample answered): validation 65.0% ± 0.0 → 80.0% ± 7.1 (greedy misses some sample answered: 2, 3 of 20).',
    );
    expect(blank).toBe('');
  });

  it('says nothing for a split some seed did not sample', () => {
    expect(ceilingLine([result(sampled(0.75, 2)), result(undefined)], ['validation'])).toEqual([]);
  });
});
