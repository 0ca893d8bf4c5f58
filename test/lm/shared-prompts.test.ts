/**
 * Shared prompts: rows that begin with the same prompt compute it once — scoring (log-probs and
 * entropies) and training (the continuations' key/value gradients summed into one prefix
 * backward) — and give what the unshared path gives, to float rounding.
 */
import { describe, expect, it } from 'vitest';
import { useTinyModel } from './tiny-model-fixture.js';
import { Rng } from '../../src/base/rng.js';
import { lengthBuckets, planSharedPrompts } from '../../src/lm/compute/shared-prompts.js';
import { LoraAdapter, Policy } from '../../src/lm/index.js';

const tinyModel = useTinyModel({ arch: 'qwen3', layers: 2, hidden: 32, heads: 4, kvHeads: 2, vocabSize: 300, seed: 8, initStd: 0.3 });

const rng = new Rng(21);
const tokens = (n: number) => Array.from({ length: n }, () => 1 + rng.int(298));
const promptA = tokens(12);
const promptB = tokens(7);
/** Two groups of different prompt lengths and continuation lengths, a row alone, a row whose prompt is all of it. */
const sequences = [
  [...promptA, ...tokens(5)],
  [...promptB, ...tokens(9)],
  [...promptA, ...tokens(1)],
  tokens(10),
  [...promptA, ...tokens(8)],
  [...promptB, ...tokens(3)],
  [...promptA],
];
const promptLengths = [12, 7, 12, 4, 12, 7, 12];
/**
 * The trainer's layout: groups of one size (3 rows each, interleaved in the input: the graph
 * reads each group's prefix once, `past: 'per-group'`), of different prompt and continuation
 * lengths, and a row alone.
 */
const sameSize = {
  sequences: [[...promptA, ...tokens(4)], [...promptB, ...tokens(6)], [...promptA, ...tokens(2)], tokens(9), [...promptB, ...tokens(1)], [...promptA, ...tokens(7)], [...promptB, ...tokens(3)]],
  promptLengths: [12, 7, 12, 3, 7, 12, 7],
};
/** Groups of four rows whose continuations are far apart in length: computed in two passes (`lengthBuckets`). */
const bucketed = {
  sequences: [[...promptA, ...tokens(1)], [...promptB, ...tokens(11)], [...promptA, ...tokens(9)], [...promptB, ...tokens(2)], [...promptA, ...tokens(10)], [...promptB, ...tokens(3)], [...promptA, ...tokens(2)], [...promptB, ...tokens(12)], tokens(6)],
  promptLengths: [12, 7, 12, 7, 12, 7, 12, 7, 3],
};
const datasets = [
  { layout: 'groups of different sizes', sequences, promptLengths },
  { layout: 'groups of one size', ...sameSize },
  { layout: 'groups of four in two length passes', ...bucketed },
] as const;

function expectClose(a: ArrayLike<number>, b: ArrayLike<number>, relative: number): void {
  expect(a.length).toBe(b.length);
  let scale = 0;
  for (let i = 0; i < b.length; i++) scale = Math.max(scale, Math.abs(b[i]!));
  for (let i = 0; i < b.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThanOrEqual(relative * scale + 1e-7);
}

describe('planSharedPrompts', () => {
  it('groups rows by their whole prompt; single rows and sub-2-token prompts stay alone', () => {
    expect(planSharedPrompts([[1, 2, 3, 9], [1, 2, 3, 8, 7], [4, 5, 6]], [3, 3, 2])).toEqual({ groups: [{ rows: [0, 1], split: 2 }], alone: [2] });
    // Same leading tokens but different prompt lengths are different prompts.
    expect(planSharedPrompts([[1, 2, 3, 9], [1, 2, 3, 8]], [3, 2]).groups).toEqual([]);
    expect(planSharedPrompts([[1, 9], [1, 8]], [1, 1])).toEqual({ groups: [], alone: [0, 1] });
    expect(() => planSharedPrompts([[1, 2]], [3])).toThrow(RangeError);
    expect(() => planSharedPrompts([[1, 2]], [])).toThrow(RangeError);
  });
});

describe('lengthBuckets', () => {
  const s = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  it('cuts every group into its shorter and longer half when that saves padding', () => {
    expect(lengthBuckets([s(4), s(12), s(5), s(4), s(13)], [{ rows: [0, 1, 2, 3, 4], split: 2 }])).toEqual([[{ split: 2, rows: [0, 3] }], [{ split: 2, rows: [2, 1, 4] }]]);
    // Each pass keeps every group, with as many rows of each.
    const plan = planSharedPrompts(bucketed.sequences, bucketed.promptLengths);
    const passes = lengthBuckets(bucketed.sequences, plan.groups);
    expect(passes).toHaveLength(2);
    for (const pass of passes) expect(pass.map((g) => g.rows.length)).toEqual([2, 2]);
    expect(passes.flatMap((pass) => pass.flatMap((g) => g.rows)).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
  it('keeps one pass for similar lengths, groups under 4 rows and groups of different sizes', () => {
    expect(lengthBuckets([s(10), s(11), s(10), s(12)], [{ rows: [0, 1, 2, 3], split: 2 }])).toEqual([[{ rows: [0, 1, 2, 3], split: 2 }]]);
    expect(lengthBuckets([s(3), s(20), s(3)], [{ rows: [0, 1, 2], split: 2 }])).toHaveLength(1);
    expect(lengthBuckets([s(3), s(20), s(3), s(20), s(5), s(6)], [{ rows: [0, 1, 2, 3], split: 2 }, { rows: [4, 5], split: 2 }])).toHaveLength(1);
  });
});

describe('scoring with shared prompts', () => {
  for (const { layout, sequences, promptLengths } of datasets) it(`gives the unshared log-probs and entropies (LoRA policy and its reference; ${layout})`, async () => {
    const adapter = LoraAdapter.create(tinyModel().config, { rank: 2, alpha: 4, targetModules: ['q_proj', 'k_proj', 'v_proj', 'down_proj'] }, { seed: 2, initB: 'random' });
    const policy = await Policy.create(tinyModel(), { adapter, intraOpThreads: 1 });
    try {
      for (const reference of [false, true]) {
        const plain = await policy.score(sequences, { entropy: true, reference });
        const shared = await policy.score(sequences, { entropy: true, reference, promptLengths });
        sequences.forEach((_, b) => {
          expectClose(shared.logprobs[b]!, plain.logprobs[b]!, 1e-5);
          expectClose(shared.entropies![b]!, plain.entropies![b]!, 1e-5);
        });
        // completionOnly: the same completion entries, every prompt entry 0 (shared rows and the row alone).
        const completions = await policy.score(sequences, { entropy: true, reference, promptLengths, completionOnly: true });
        sequences.forEach((_, b) => {
          const p = promptLengths[b]!;
          expectClose(completions.logprobs[b]!.subarray(p), plain.logprobs[b]!.subarray(p), 1e-5);
          expectClose(completions.entropies![b]!.subarray(p), plain.entropies![b]!.subarray(p), 1e-5);
          expect(Array.from(completions.logprobs[b]!.subarray(0, p)).every((v) => v === 0)).toBe(true);
          expect(Array.from(completions.entropies![b]!.subarray(0, p)).every((v) => v === 0)).toBe(true);
        });
      }
    } finally {
      await policy.close();
    }
  });
});

describe('training with shared prompts', () => {
  for (const { layout, sequences, promptLengths } of datasets) {
  const weighted = sequences.map((s) => Float32Array.from(s, () => rng.float() * 2 - 1));
  // GRPO's case: the prompt's tokens carry no weight, so the prefix backward runs without the LM head.
  const masked = weighted.map((w, b) => w.map((v, t) => (t < promptLengths[b]! ? 0 : v)));

  for (const [train, promptWeights] of [['full', 'weighted'], ['lora', 'weighted'], ['full', 'zero'], ['lora', 'zero']] as const) {
    it(`accumulates the unshared gradient (${train}, prompt tokens ${promptWeights}; ${layout}) and reports the unshared scores`, async () => {
      const weights = promptWeights === 'weighted' ? weighted : masked;
      const make = () =>
        Policy.create(tinyModel(), {
          intraOpThreads: 1,
          ...(train === 'lora' ? { adapter: LoraAdapter.create(tinyModel().config, { rank: 2, alpha: 4, targetModules: ['q_proj', 'v_proj', 'up_proj'] }, { seed: 4, initB: 'random' }) } : { train: 'full' as const }),
        });
      const a = await make();
      const b = await make();
      try {
        const ta = await a.createTrainer({});
        const tb = await b.createTrainer({});
        const plain = await ta.accumulate(sequences, weights, { scores: { entropy: true } });
        const shared = await tb.accumulate(sequences, weights, { scores: { entropy: true }, promptLengths });
        expect(shared.objective).toBeCloseTo(plain.objective, 4);
        sequences.forEach((_, i) => {
          expectClose(shared.logprobs![i]!, plain.logprobs![i]!, 1e-5);
          expectClose(shared.entropies![i]!, plain.entropies![i]!, 1e-5);
        });
        // Without scores asked for, and with completionOnly, the same gradient is accumulated (twice more).
        await ta.accumulate(sequences, weights);
        await tb.accumulate(sequences, weights, { promptLengths });
        await ta.accumulate(sequences, weights);
        const completions = await tb.accumulate(sequences, weights, { promptLengths, completionOnly: true, scores: { entropy: true } });
        sequences.forEach((_, i) => {
          const p = promptLengths[i]!;
          expectClose(completions.logprobs![i]!.subarray(p), plain.logprobs![i]!.subarray(p), 1e-5);
          expect(Array.from(completions.entropies![i]!.subarray(0, p)).every((v) => v === 0)).toBe(true);
        });
        const ga = await ta.readGradients();
        const gb = await tb.readGradients();
        expect(gb.size).toBe(ga.size);
        let nonzero = 0;
        for (const [name, g] of ga) {
          expectClose(gb.get(name)!.data, g.data, 1e-5);
          if (g.data.some((v) => v !== 0)) nonzero++;
        }
        expect(nonzero).toBe(ga.size);
      } finally {
        await a.close();
        await b.close();
      }
    });
  }

  it(`with weightedOnly scores, runs the LM head on the weighted positions alone: the same gradient, their scores, 0 elsewhere (${layout})`, async () => {
    // SFT's case: a few trained tokens per row after a masked prompt.
    const sparse = sequences.map((s, b) => Float32Array.from(s, (_, t) => (t >= promptLengths[b]! && t % 3 === 1 ? rng.float() - 1 : 0)));
    const a = await Policy.create(tinyModel(), { intraOpThreads: 1, train: 'full' });
    const b = await Policy.create(tinyModel(), { intraOpThreads: 1, train: 'full' });
    try {
      const ta = await a.createTrainer({});
      const tb = await b.createTrainer({});
      const plain = await ta.accumulate(sequences, sparse, { scores: { entropy: true } });
      const headOnly = await tb.accumulate(sequences, sparse, { scores: { entropy: true, weightedOnly: true }, promptLengths, completionOnly: true });
      expect(headOnly.objective).toBeCloseTo(plain.objective, 4);
      sequences.forEach((_, i) => {
        sparse[i]!.forEach((w, t) => {
          if (w !== 0) {
            expect(headOnly.logprobs![i]![t]!).toBeCloseTo(plain.logprobs![i]![t]!, 4);
            expect(headOnly.entropies![i]![t]!).toBeCloseTo(plain.entropies![i]![t]!, 4);
          } else {
            expect(headOnly.logprobs![i]![t]).toBe(0);
            expect(headOnly.entropies![i]![t]).toBe(0);
          }
        });
      });
      const ga = await ta.readGradients();
      const gb = await tb.readGradients();
      for (const [name, g] of ga) expectClose(gb.get(name)!.data, g.data, 1e-5);
    } finally {
      await a.close();
      await b.close();
    }
  });
  }
});
