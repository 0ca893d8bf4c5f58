/**
 * An SFT step runs one backward pass with the batch's common prompt computed once, and takes the
 * reported loss from the scores that pass returns: its loss and gradient equal those of scoring
 * every row in full and back-propagating every row in full (the former path), to float rounding.
 */
import { describe, expect, it } from 'vitest';
import { useTinyModel } from '../lm/tiny-model-fixture.js';
import { LoraAdapter, Policy } from '../../src/lm/index.js';
import { sftLogprobWeights, sftLoss } from '../../src/train/math/policy-loss.js';
import { applyPolicyUpdate } from '../../src/train/grpo/policy-update.js';
import { sharedPromptLengths, sftStep } from '../../src/train/sft/sft-epoch.js';
import type { SftSequence } from '../../src/train/sft/oracle-trajectories.js';
import { instrumentedPolicy } from './fixtures/instrumented-policy.js';

const tinyModel = useTinyModel({ arch: 'qwen3', layers: 2, hidden: 32, heads: 2, kvHeads: 1, vocabSize: 300, seed: 5, initStd: 0.3 });

async function trainable(train: 'full' | 'lora') {
  const adapter = train === 'lora' ? LoraAdapter.create(tinyModel().config, { rank: 2, alpha: 4, targetModules: ['q_proj', 'v_proj', 'down_proj'] }, { seed: 3, initB: 'random' }) : undefined;
  return instrumentedPolicy(await Policy.create(tinyModel(), adapter ? { adapter, intraOpThreads: 1 } : { train: 'full', intraOpThreads: 1 }));
}

// Three trajectories opening with the same 7-token "system prompt", then their own question and answer.
const system = [1, 20, 30, 40, 50, 60, 70];
const batch: Pick<SftSequence, 'tokens' | 'mask'>[] = [
  { tokens: [...system, 11, 12, 101, 102, 103], mask: [...system.map(() => 0), 0, 0, 1, 1, 1] },
  { tokens: [...system, 13, 104, 105], mask: [...system.map(() => 0), 0, 1, 1] },
  { tokens: [...system, 14, 15, 16, 106, 107, 108, 109], mask: [...system.map(() => 0), 0, 0, 0, 1, 1, 1, 1] },
];

describe('SFT step', () => {
  it('shares the common prompt, cut at each row\'s first trained token', () => {
    expect(sharedPromptLengths(batch)).toEqual([7, 7, 7]);
    // A row trained from inside the common prefix keeps its trained tokens out of the shared part.
    expect(sharedPromptLengths([batch[0]!, { tokens: [...system, 9], mask: [0, 0, 0, 1, 1, 1, 1, 1] }])).toEqual([7, 3]);
    expect(sharedPromptLengths([{ tokens: [5, 6], mask: [0, 1] }, { tokens: [7, 6], mask: [0, 1] }])).toEqual([0, 0]);
  });

  it('weights every masked token −1/N without needing log-probs', () => {
    const { weights, tokens } = sftLogprobWeights(batch.map((s) => s.mask));
    expect(tokens).toBe(9);
    expect(weights.flatMap((w) => [...w]).filter((w) => w !== 0)).toEqual(Array(9).fill(-1 / 9));
    expect(sftLoss([{ logprobs: [-1, -3], mask: [0, 1] }]).logprobGrads[0]).toEqual(sftLogprobWeights([[0, 1]]).weights[0]);
  });

  it.each(['full', 'lora'] as const)('equals scoring and back-propagating every row in full (%s fine-tuning), without a scoring pass', async (train) => {
    const a = await trainable(train);
    const b = await trainable(train);
    try {
      const options = { lr: 1e-2, maxGradNorm: 1, microBatches: 1 };
      const ours = await sftStep(a.policy, a.optimizer, batch, options);
      expect(a.passes()).toBe(0);

      const sequences = batch.map((s) => s.tokens);
      const scores = await b.policy.score(sequences);
      const reference = sftLoss(batch.map((s, i) => ({ logprobs: scores[i]!.logprobs, mask: s.mask })));
      const update = await applyPolicyUpdate(b.policy, b.optimizer, sequences, reference.logprobGrads, undefined, { loss: reference.loss, ...options });

      expect(ours.loss).toBeCloseTo(reference.loss, 5);
      expect(ours.gradNorm).toBeCloseTo(update.gradNorm, 4);
      expect(a.gradient.size).toBeGreaterThan(0);
      for (const [name, g] of b.gradient) {
        const mine = a.gradient.get(name)!;
        const scale = Math.max(1e-6, ...g.map(Math.abs));
        g.forEach((x, i) => expect(Math.abs(mine[i]! - x) / scale).toBeLessThan(1e-4));
      }
    } finally {
      await a.lm.close();
      await b.lm.close();
    }
  });
});
