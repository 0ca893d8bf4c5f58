/**
 * The train-demo bench reads GRPO's health from each run's metrics.jsonl before it deletes the run:
 * the mean zero-std share after step 3 and the alarms raised.
 */
import { describe, expect, it } from 'vitest';
import { runHealth } from '../../bench/train-demo.bench.js';

const lines = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('runHealth', () => {
  it('averages frac_reward_zero_std over the train steps after step 3 and lists the alarms', () => {
    const text = lines(
      { kind: 'sft', step: 1, loss: 1 },
      { kind: 'train', step: 1, frac_reward_zero_std: 1 },
      { kind: 'train', step: 3, frac_reward_zero_std: 1 },
      { kind: 'train', step: 4, frac_reward_zero_std: 0.5 },
      { kind: 'event', step: 11, event: 'alarm:identical_completions', message: 'ALARM' },
      { kind: 'event', step: 12, event: 'sft_validation', message: 'not an alarm' },
      { kind: 'train', step: 5, frac_reward_zero_std: 0 },
    );
    expect(runHealth(text)).toEqual({ zeroStdAfterStep3: 0.25, alarms: ['identical_completions at step 11'] });
  });

  it('has no zero-std share for a run without GRPO steps after step 3', () => {
    expect(runHealth(lines({ kind: 'train', step: 2, frac_reward_zero_std: 0.5 }))).toEqual({ zeroStdAfterStep3: undefined, alarms: [] });
  });
});
