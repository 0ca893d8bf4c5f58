import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageModel, LoraAdapter, Policy, createTinyModel, loadModel, parseAssistantReply } from '../../src/lm/index.js';
import { sharedRows } from '../../src/lm/compute/prompt-sharing.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const root = useTempDirs('lm-model-')();
let model: LanguageModel;
let policy: Policy;

beforeAll(async () => {
  await createTinyModel(join(root, 'tiny'), { arch: 'qwen3', layers: 2, hidden: 64, heads: 4, kvHeads: 2, vocabSize: 600, seed: 5, initStd: 0.2 });
  model = await loadModel(join(root, 'tiny'));
  policy = await Policy.create(model, { train: 'full' });
});
afterAll(async () => {
  await policy?.close();
});

const close = (a: ArrayLike<number>, b: ArrayLike<number>, tol: number): void => {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThan(tol);
};

describe('tiny model directory', () => {
  it('is a Hugging Face layout that loads through loadModel', () => {
    for (const f of ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json', 'generation_config.json']) {
      expect(existsSync(join(root, 'tiny', f))).toBe(true);
    }
    expect(model.config).toMatchObject({ arch: 'qwen3', numLayers: 2, hiddenSize: 64, numHeads: 4, numKvHeads: 2, qkNorm: true, tieWordEmbeddings: true });
    expect(model.config.vocabSize).toBe(model.tokenizer.vocabSize);
    expect(model.tokenizer.hasOwnChatTemplate).toBe(true);
    expect(model.generationDefaults.stopTokenIds).toContain(model.tokenizer.tokenToId('<|im_end|>'));
    expect(model.weights.has('model.layers.1.self_attn.k_norm.weight')).toBe(true);
  });

  it('is reproducible from its seed', async () => {
    await createTinyModel(join(root, 'again'), { arch: 'qwen3', layers: 2, hidden: 64, heads: 4, kvHeads: 2, vocabSize: 600, seed: 5, initStd: 0.2 });
    const again = await loadModel(join(root, 'again'));
    expect(again.weight('model.norm.weight').data).toEqual(model.weight('model.norm.weight').data);
  });
});

describe('scoring', () => {
  const a = [3, 17, 42, 99, 7, 250];
  const b = [11, 5, 300];

  it('gives the same log-probs batched (left-padded) as one at a time', async () => {
    const [la, lb] = await policy.logprobs([a, b]);
    const [alone] = await policy.logprobs([b]);
    // Token-aligned: entry t scores token t; token 0 has no context and scores 0.
    expect(la).toHaveLength(a.length);
    expect(la![0]).toBe(0);
    close(lb!, alone!, 1e-5);
    expect([...la!.subarray(1)].every((v) => v < 0)).toBe(true);
  });

  it('returns gradients that match central differences', async () => {
    const weights = [new Array(a.length).fill(-1)]; // entry 0 is ignored
    const { objective, gradients } = await policy.backward([a], weights);
    const params = policy.trainableParameters();
    const name = 'model.layers.1.mlp.down_proj.weight';
    const g = gradients.get(name)!;
    const w = params.get(name)!.data;
    const i = Array.from(g.data).reduce((best, v, k) => (Math.abs(v) > Math.abs(g.data[best]!) ? k : best), 0);
    const h = 1e-2;
    const original = w[i]!;
    const nll = async (): Promise<number> => -(await policy.logprobs([a]))[0]!.reduce((s, v) => s + v, 0);
    w[i] = original + h;
    const plus = await nll();
    w[i] = original - h;
    const minus = await nll();
    w[i] = original;
    expect(objective).toBeCloseTo((await policy.logprobs([a]))[0]!.reduce((s, v) => s - v, 0), 3);
    expect(Math.abs((plus - minus) / (2 * h) - g.data[i]!)).toBeLessThan(0.02 * Math.abs(g.data[i]!) + 1e-3);
    expect(gradients.size).toBe(model.weights.size);
  });
});

describe('generation', () => {
  const prompts = (): number[][] => [
    model.tokenizer.encodeChat([{ role: 'user', content: 'How many singers are there?' }], { addGenerationPrompt: true }),
    model.tokenizer.encode('SELECT name FROM'),
    [7],
  ];

  it('with the KV cache equals generation without it, token for token, at temperature 0', async () => {
    let steps = -1;
    const cached = await policy.generate(prompts(), { maxTokens: 24, temperature: 0, stopTokenIds: [], onTimings: (t) => (steps = t.decodeSteps) });
    expect(steps).toBe(23); // one prefill pass, then one decode pass per further token
    const uncached = await policy.generate(prompts(), { maxTokens: 24, temperature: 0, stopTokenIds: [], kvCache: false });
    cached.forEach((g, i) => {
      expect(g.tokenIds).toEqual(uncached[i]!.tokenIds);
      close(g.logprobs, uncached[i]!.logprobs, 1e-4);
      expect(g.tokenIds).toHaveLength(24);
      expect(g.finishReason).toBe('length');
    });
    // Varied output, so the comparison is not trivially about a repeated token.
    expect(new Set(cached[0]!.tokenIds).size).toBeGreaterThan(3);
    const single = await policy.generate([prompts()[1]!], { maxTokens: 24, temperature: 0, stopTokenIds: [] });
    expect(single[0]!.tokenIds).toEqual(cached[1]!.tokenIds);
  });

  it('prefills a prompt shared by several rows once; the rows sample as if each had its own prefill', async () => {
    const [p, q] = prompts() as [number[], number[]];
    const batch = [p, q, p, p];
    let shared = -1;
    let sharedMs = 0;
    const cached = await policy.generate(batch, { maxTokens: 10, temperature: 1, seed: 9, stopTokenIds: [], onTimings: (t) => (sharedMs = t.prefillMs, shared = t.decodeSteps) });
    expect(shared).toBe(9);
    expect(sharedMs).toBeGreaterThan(0);
    // kvCache: false reruns every row's whole sequence (no sharing): same samples, same log-probs.
    const uncached = await policy.generate(batch, { maxTokens: 10, temperature: 1, seed: 9, stopTokenIds: [], kvCache: false });
    cached.forEach((g, i) => {
      expect(g.tokenIds).toEqual(uncached[i]!.tokenIds);
      close(g.logprobs, uncached[i]!.logprobs, 1e-4);
    });
    // The rows that share p sample independently.
    expect(new Set([0, 2, 3].map((i) => cached[i]!.tokenIds.join(','))).size).toBeGreaterThan(1);
  });

  it('reads a group-shared prompt cache when groups are runs of one size (GRPO layout): the samples of row-by-row decoding', async () => {
    const [p, q] = prompts() as [number[], number[]];
    // Two groups of three consecutive rows, prompts of different lengths (left padding in the
    // prefill), and a stop token that ends some rows while the others go on.
    const batch = [p, p, p, q, q, q];
    const free = await policy.generate(batch, { maxTokens: 16, temperature: 1, seed: 4, stopTokenIds: [] });
    const stopTokenIds = [free[0]!.tokenIds[3]!];
    const grouped = await policy.generate(batch, { maxTokens: 16, temperature: 1, seed: 4, stopTokenIds });
    const uncached = await policy.generate(batch, { maxTokens: 16, temperature: 1, seed: 4, stopTokenIds, kvCache: false });
    grouped.forEach((g, i) => {
      expect(g.tokenIds).toEqual(uncached[i]!.tokenIds);
      expect(g.finishReason).toBe(uncached[i]!.finishReason);
      close(g.logprobs, uncached[i]!.logprobs, 1e-4);
    });
    expect(new Set(grouped.map((g) => g.tokenIds.length)).size).toBeGreaterThan(1);
  });

  it('samples on the device (the sampling head) as the host does: greedy token for token, draws scored as their sequences score', async () => {
    const host = await policy.generate(prompts(), { maxTokens: 16, temperature: 0, stopTokenIds: [] });
    const device = await policy.generate(prompts(), { maxTokens: 16, temperature: 0, stopTokenIds: [], sampleOnDevice: true });
    device.forEach((g, i) => {
      expect(g.tokenIds).toEqual(host[i]!.tokenIds);
      close(g.logprobs, host[i]!.logprobs, 1e-4);
    });
    const [p, q] = prompts() as [number[], number[]];
    const batch = [p, p, q, q];
    const drawn = await policy.generate(batch, { maxTokens: 12, temperature: 0.9, seed: 3, stopTokenIds: [], sampleOnDevice: true });
    const again = await policy.generate(batch, { maxTokens: 12, temperature: 0.9, seed: 3, stopTokenIds: [], sampleOnDevice: true });
    expect(drawn.map((g) => g.tokenIds)).toEqual(again.map((g) => g.tokenIds));
    expect(new Set(drawn.map((g) => g.tokenIds.join(','))).size).toBeGreaterThan(2);
    const scored = await policy.logprobs(drawn.map((g) => [...g.promptTokenIds, ...g.tokenIds]), { temperature: 0.9 });
    drawn.forEach((g, i) => close(g.logprobs, scored[i]!.slice(g.promptTokenIds.length), 1e-4));
    await expect(policy.generate([p], { maxTokens: 2, topK: 5, sampleOnDevice: true })).rejects.toThrow(/sampleOnDevice: false/);
  });

  it('sharedRows maps rows to their distinct prompts, and finds nothing to share among distinct ones', () => {
    expect(sharedRows([[1, 2], [3], [1, 2]])).toEqual({ prompts: [[1, 2], [3]], rowOf: [0, 1, 0] });
    expect(sharedRows([[1, 2], [1], [2, 1]])).toBeUndefined();
  });

  it('reports log-probs equal to scoring the completed sequence at the sampling temperature', async () => {
    for (const temperature of [1, 0.6]) {
      const [g] = await policy.generate([prompts()[0]!], { maxTokens: 12, temperature, seed: 4, stopTokenIds: [] });
      const [scored] = await policy.logprobs([[...g!.promptTokenIds, ...g!.tokenIds]], { temperature });
      // One convention: a generated token's log-prob sits at that token's index in the scored sequence.
      close(g!.logprobs, scored!.slice(g!.promptTokenIds.length), 1e-4);
      if (temperature !== 1) {
        // …and at T ≠ 1 that is not the model's own distribution: the tempered one is sharper.
        const [own] = await policy.logprobs([[...g!.promptTokenIds, ...g!.tokenIds]]);
        expect(Math.max(...g!.logprobs.map((v, t) => Math.abs(v - own!.slice(g!.promptTokenIds.length)[t]!)))).toBeGreaterThan(1e-2);
      }
    }
  });

  it('samples reproducibly from a seed and honours stop tokens, stop strings and text prompts', async () => {
    const run = (seed: number) => policy.generate(prompts(), { maxTokens: 16, temperature: 1, topP: 0.95, topK: 40, seed, stopTokenIds: [] });
    const [x, y, z] = [await run(1), await run(1), await run(2)];
    expect(x.map((g) => g.tokenIds)).toEqual(y.map((g) => g.tokenIds));
    expect(x.map((g) => g.tokenIds)).not.toEqual(z.map((g) => g.tokenIds));

    const [greedy] = await policy.generate([prompts()[1]!], { maxTokens: 8, temperature: 0, stopTokenIds: [] });
    const stopAt = greedy!.tokenIds[2]!;
    const [stopped] = await policy.generate([prompts()[1]!], { maxTokens: 8, temperature: 0, stopTokenIds: [stopAt] });
    expect(stopped!.finishReason).toBe('stop_token');
    expect(stopped!.tokenIds).toEqual(greedy!.tokenIds.slice(0, greedy!.tokenIds.indexOf(stopAt) + 1));
    expect(stopped!.text).toBe(model.tokenizer.decode(stopped!.tokenIds.slice(0, -1)));

    const text = greedy!.text;
    const needle = text.slice(Math.floor(text.length / 2), Math.floor(text.length / 2) + 2);
    const [cut] = await policy.generate(['SELECT name FROM'], { maxTokens: 8, temperature: 0, stopStrings: [needle], stopTokenIds: [] });
    expect(cut!.finishReason).toBe('stop_string');
    expect(cut!.text).toBe(text.slice(0, text.indexOf(needle)));
    expect(parseAssistantReply(cut!.text).toolCalls).toEqual([]);
  });
});

describe('LoRA', () => {
  it('round-trips through PEFT files and merges to the same model', async () => {
    const adapter = LoraAdapter.create(model.config, { rank: 4, alpha: 8, targetModules: ['q_proj', 'v_proj', 'down_proj'] }, { seed: 2, initB: 'random' });
    await adapter.save(join(root, 'adapter'), { baseModel: join(root, 'tiny') });
    const loaded = await LoraAdapter.load(join(root, 'adapter'), model.config);
    expect([...loaded.weights.keys()]).toEqual([...adapter.weights.keys()]);
    expect(loaded.weights.get(adapter.sites[0]!.bName)!.data).toEqual(adapter.weights.get(adapter.sites[0]!.bName)!.data);
    expect(adapter.sites[0]!.aName).toBe('base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight');

    const seq = [3, 17, 42, 99, 7, 250];
    const lora = await Policy.create(model, { adapter: loaded });
    const merged = new LanguageModel(model.dir, model.config, model.tokenizer, model.generationDefaults, loaded.merge(model.weights));
    const mergedPolicy = await Policy.create(merged, { train: 'full' });
    try {
      const [withAdapter] = await lora.logprobs([seq]);
      const [withMerged] = await mergedPolicy.logprobs([seq]);
      const [reference] = await lora.logprobs([seq], { reference: true });
      const [base] = await policy.logprobs([seq]);
      close(withAdapter!, withMerged!, 1e-4);
      close(reference!, base!, 1e-6);
      expect(Math.max(...withAdapter!.map((v, i) => Math.abs(v - base![i]!)))).toBeGreaterThan(1e-3);

      // dL/dB = scale · dL/dW · Aᵀ, with dL/dW the full gradient at the merged weights.
      const weights = [new Array(seq.length).fill(-1)];
      const loraGrads = (await lora.backward([seq], weights)).gradients;
      const fullGrads = (await mergedPolicy.backward([seq], weights)).gradients;
      const site = loaded.sites.find((s) => s.projection === 'v_proj')!;
      const gW = fullGrads.get(site.baseWeight)!;
      const a = loaded.weights.get(site.aName)!;
      const [out, inF] = gW.shape as [number, number];
      const r = a.shape[0]!;
      const expected = new Float32Array(out * r);
      for (let o = 0; o < out; o++) for (let k = 0; k < r; k++) {
        let s = 0;
        for (let i = 0; i < inF; i++) s += gW.data[o * inF + i]! * a.data[k * inF + i]!;
        expected[o * r + k] = loaded.scale * s;
      }
      close(loraGrads.get(site.bName)!.data, expected, 1e-4);
      expect(loraGrads.size).toBe(loaded.weights.size);
    } finally {
      await lora.close();
      await mergedPolicy.close();
    }
  });

  it('trains: a few gradient steps on the adapter raise the likelihood of a sequence', async () => {
    const adapter = LoraAdapter.create(model.config, { rank: 4, alpha: 8, targetModules: ['q_proj', 'v_proj', 'up_proj'] }, { seed: 1 });
    const lora = await Policy.create(model, { adapter });
    try {
      const seq = [9, 40, 41, 42, 43, 44, 45];
      const weights = [new Array(seq.length).fill(1)]; // ascend Σ logprobs
      const first = (await lora.backward([seq], weights)).objective;
      for (let step = 0; step < 5; step++) {
        const { gradients } = await lora.backward([seq], weights);
        for (const [name, p] of lora.trainableParameters()) {
          const g = gradients.get(name)!.data;
          for (let i = 0; i < p.data.length; i++) p.data[i]! += 0.05 * g[i]!;
        }
      }
      const last = (await lora.backward([seq], weights)).objective;
      expect(last).toBeGreaterThan(first + 0.1);
      // The reference (adapters off) is untouched by training.
      close((await lora.logprobs([seq], { reference: true }))[0]!, (await policy.logprobs([seq]))[0]!, 1e-6);
    } finally {
      await lora.close();
    }
  });

  it('starts as the base model when B is zero', async () => {
    const adapter = LoraAdapter.create(model.config, { rank: 2, alpha: 4, targetModules: ['gate_proj'] });
    const lora = await Policy.create(model, { adapter });
    try {
      const seq = [5, 6, 7, 8];
      close((await lora.logprobs([seq]))[0]!, (await policy.logprobs([seq]))[0]!, 1e-6);
    } finally {
      await lora.close();
    }
  });
});
