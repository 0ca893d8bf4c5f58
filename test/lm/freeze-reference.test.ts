/**
 * A full-tuning policy's reference model follows `freezeReference` in place: the trained
 * parameters become the base weights the reference scores with, while the trainer (its
 * parameters, moments and step count) and the loaded model stay as they were.
 */
import { describe, expect, it } from 'vitest';
import { Policy, LoraAdapter } from '../../src/lm/index.js';
import { LmTrainablePolicy } from '../../src/train/policy/lm-policy-adapter.js';
import { useTinyModel } from './tiny-model-fixture.js';

const tinyModel = useTinyModel({ arch: 'qwen3', layers: 1, hidden: 16, heads: 2, kvHeads: 1, vocabSize: 300, seed: 5, initStd: 0.3 });
const seqs = [[5, 9, 11, 40, 41, 3, 4], [100, 101, 102, 103, 6, 7, 8]];
const weights = seqs.map((s) => s.map((_, t) => (t >= 4 ? -0.5 : 0)));

describe('Policy.freezeReference', () => {
  it('full tuning: the reference scores with the current parameters; the trainer carries on', async () => {
    const model = tinyModel();
    const original = model.weights.get('model.embed_tokens.weight')!.data.slice();
    const policy = await Policy.create(model, { train: 'full', intraOpThreads: 1 });
    try {
      const trainer = await policy.createTrainer({ weightDecay: 0 });
      await trainer.accumulate(seqs, weights);
      await trainer.step(1e-2, 1);
      const before = await policy.logprobs(seqs, { reference: true });
      const current = await policy.logprobs(seqs);
      expect(before).not.toEqual(current);
      const moments = await trainer.exportState();
      await policy.freezeReference();
      expect(await policy.logprobs(seqs, { reference: true })).toEqual(current);
      expect(policy.activeTrainer).toBe(trainer);
      expect(await trainer.exportState()).toEqual(moments);
      await trainer.accumulate(seqs, weights);
      await trainer.step(1e-2, 1);
      expect(trainer.stepCount).toBe(2);
      // The reference stays where it was frozen while training moves on.
      expect(await policy.logprobs(seqs, { reference: true })).toEqual(current);
      expect(await policy.logprobs(seqs)).not.toEqual(current);
      // The loaded model is not written.
      expect(model.weights.get('model.embed_tokens.weight')!.data).toEqual(original);
    } finally {
      await policy.close();
    }
  });

  it('LoRA: the reference stays the base model (adapters off)', async () => {
    const model = tinyModel();
    const adapter = LoraAdapter.create(model.config, { rank: 2, alpha: 4, targetModules: ['q_proj', 'v_proj'] }, { seed: 1 });
    const policy = await Policy.create(model, { adapter, intraOpThreads: 1 });
    try {
      const trainer = await policy.createTrainer({ weightDecay: 0 });
      await trainer.accumulate(seqs, weights);
      await trainer.step(1e-2, 1);
      const reference = await policy.logprobs(seqs, { reference: true });
      await policy.freezeReference();
      expect(await policy.logprobs(seqs, { reference: true })).toEqual(reference);
      expect(await policy.logprobs(seqs)).not.toEqual(reference);
    } finally {
      await policy.close();
    }
  });
});

describe('LmTrainablePolicy.createOptimizer', () => {
  it("hands the trainer the LM policy's own resident trainer: one hop to the update", async () => {
    const lm = await Policy.create(tinyModel(), { train: 'full', intraOpThreads: 1 });
    const policy = new LmTrainablePolicy(lm);
    try {
      const optimizer = await policy.createOptimizer({ beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 });
      expect(optimizer).toBe(lm.activeTrainer);
      await policy.freezeReference();
      expect(lm.activeTrainer).toBe(optimizer);
    } finally {
      await policy.dispose();
    }
  });
});
