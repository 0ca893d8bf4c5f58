import { describe, expect, it } from 'vitest';
import { trainingResultLine } from '../../src/train/eval/result-line.js';
import type { SplitResult, TrainingSummary } from '../../src/train/run/run-types.js';

const result = (correct: boolean[], extra: Partial<SplitResult> = {}): SplitResult => ({
  success: correct.filter(Boolean).length / correct.length,
  meanReturn: 0,
  episodes: correct.length,
  correct,
  ...extra,
});
const summary = (sft: Record<string, SplitResult>, final: Record<string, SplitResult>): TrainingSummary => ({
  formatCheck: {},
  sftSteps: 1,
  grpoSteps: 1,
  evaluations: { sft, final },
  wallSeconds: 1,
});
const run = { seed: 3, seconds: 12.5, trainedDecoding: 'unguided' as const };

describe('trainingResultLine', () => {
  it('pairs each split after SFT and after GRPO, with its role, decoding and McNemar test', () => {
    const line = trainingResultLine(
      summary({ heldout: result([false, false, false, true]) }, { heldout: result([true, true, true, true]) }),
      { heldout: 'adapt_heldout' },
      run,
    );
    expect(line).toEqual({
      seed: 3,
      seconds: 12.5,
      trained_decoding: 'unguided',
      results: [{ split: 'heldout', role: 'adapt_heldout', decoding: 'unguided', questions: 4, sft: 0.25, grpo: 1, gained: 3, lost: 0, p_value: 0.25 }],
    });
  });

  it('reports a guided evaluation and the unguided figure recorded beside it as two outcomes', () => {
    const guided = (correct: boolean[], unguided: boolean[]) =>
      result(correct, { decoding: 'guided', unguided: { success: unguided.filter(Boolean).length / unguided.length, meanReturn: 0, correct: unguided } });
    const line = trainingResultLine(
      summary({ eval: guided([true, false], [false, false]) }, { eval: guided([true, true], [true, false]) }),
      { eval: 'seen' },
      { ...run, trainedDecoding: 'guided' },
    );
    expect(line.results.map((r) => [r.decoding, r.sft, r.grpo, r.gained, r.lost])).toEqual([
      ['guided', 0.5, 1, 1, 0],
      ['unguided', 0, 0.5, 1, 0],
    ]);
  });

  it('leaves out splits that were not evaluated twice on the same questions, or lack per-question results', () => {
    const line = trainingResultLine(
      summary(
        { a: result([true]), b: result([true, false]), c: { success: 1, meanReturn: 0, episodes: 1 } },
        { b: result([true]), c: { success: 1, meanReturn: 0, episodes: 1 } },
      ),
      { a: 'seen', b: 'transfer', c: 'seen' },
      run,
    );
    expect(line.results).toEqual([]);
  });
});
