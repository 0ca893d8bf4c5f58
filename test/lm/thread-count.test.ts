/**
 * Scoring and training on several CPU threads (`scoringThreads`, the trainer's `model.threads`)
 * must give the same bits run after run, so that a seed reproduces its run. What broke it: a
 * gather's gradient (the embedding's) summed with onnxruntime's ScatterND(add), which races on
 * several threads and lost updates, differently on every run.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import { Policy } from '../../src/lm/index.js';
import { useTinyModel } from './tiny-model-fixture.js';

const model = useTinyModel({ arch: 'qwen3', layers: 1, hidden: 128, heads: 4, kvHeads: 2, vocabSize: 400, seed: 5, initStd: 0.2 });

// Eight rows in two groups sharing a prompt (as SFT batches do), 460–570 tokens, most of them a
// few frequent ids so the embedding's gradient sums many rows into one.
const rng = new Rng(11);
const prompt = Array.from({ length: 60 }, () => 1 + rng.int(40));
const sequences = Array.from({ length: 8 }, (_, b) => [...(b < 5 ? prompt : prompt.slice(0, 30)), ...Array.from({ length: 400 + 16 * b }, () => 1 + (rng.int(3) === 0 ? rng.int(399) : rng.int(12)))]);
const promptLengths = sequences.map((_, b) => (b < 5 ? 60 : 30));
const weights = sequences.map((s, b) => Float32Array.from(s, (_, t) => (t < promptLengths[b]! ? 0 : ((t + b) % 5) / 5 - 0.5)));

async function trainOn(scoringThreads: number): Promise<string[]> {
  const policy = await Policy.create(model(), { intraOpThreads: 1, scoringThreads, train: 'full' });
  try {
    const scores = await policy.score(sequences, { entropy: true, promptLengths });
    const trainer = await policy.createTrainer({ beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0.01 });
    for (let step = 0; step < 2; step++) {
      trainer.zeroGrad();
      await trainer.accumulate(sequences, weights, { promptLengths });
      await trainer.step(1e-2, 1);
    }
    const parameters = await trainer.readParameters();
    const bits = (a: Float32Array): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
    return [...scores.logprobs.map(bits), ...scores.entropies!.map(bits), ...[...parameters].sort(([a], [b]) => a.localeCompare(b)).map(([n, t]) => `${n}:${bits(t.data)}`)];
  } finally {
    await policy.close();
  }
}

describe('scoring and training on several CPU threads', () => {
  for (const threads of [2, 4]) {
    it(`give the same log-probs, entropies and trained weights, bit for bit, run after run (${threads} threads)`, async () => {
      const first = await trainOn(threads);
      for (let run = 0; run < 3; run++) expect(await trainOn(threads)).toEqual(first);
    }, 60_000);
  }
});
