import { describe, expect, it } from 'vitest';
import { headroomLine } from '../../src/train/eval/headroom-line.js';

describe('headroomLine', () => {
  it('prints pass@1 → pass@K and the sharpening ceiling after SFT, per sampled split', () => {
    const sampled = { k: 16, questions: 72, passAt1: 0.568, passAtK: 0.778, majority: 0.639, greedy: 0.708, missedButSampled: 5, ceiling: 0.778 };
    const summary = { formatCheck: {}, sftSteps: 1, grpoSteps: 1, wallSeconds: 1, evaluations: { sft: { validation: { success: 0.708, meanReturn: 0, episodes: 72, sampled }, eval: { success: 0.7, meanReturn: 0, episodes: 119 } } } };
    expect(headroomLine(summary, ['validation', 'eval'])).toBe(
      'headroom after SFT (samples at the rollout temperature): validation pass@1 56.8% → pass@16 77.8% (majority vote 63.9%; on these 72 questions greedy 70.8%, 5 of its misses answered by a sample: ceiling 77.8%)',
    );
    expect(headroomLine({ ...summary, evaluations: {} }, ['validation'])).toBeUndefined();
  });
});
