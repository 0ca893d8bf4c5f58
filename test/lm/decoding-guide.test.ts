/**
 * Guided decoding: a guide's nudge is added to the logits of the tokens it favours, from the
 * prompt's and the generated text, and the draw's log-probability is that of the nudged
 * distribution; device sampling is refused with a guide.
 */
import { describe, expect, it } from 'vitest';
import { useTinyModel } from './tiny-model-fixture.js';
import { NudgeApplier, nudgedLogits, Policy, type NextTokenGuide, type TokenNudge } from '../../src/lm/index.js';

const tinyModel = useTinyModel({ arch: 'qwen3', layers: 1, hidden: 32, heads: 2, kvHeads: 1, vocabSize: 300, seed: 7, initStd: 0.3 });

describe('nudgedLogits', () => {
  it('adds the bias to favoured tokens only, on a copy, and never to tokens without text', () => {
    const logits = new Float32Array([1, 2, 3, 4]);
    const out = nudgedLogits(logits, { bias: 10, favours: (t) => t.startsWith('a') }, ['ab', 'b', '', 'a']);
    expect([...out]).toEqual([11, 2, 3, 14]);
    expect([...logits]).toEqual([1, 2, 3, 4]);
  });

  it('adds up the biases of several nudges where more than one favours a token', () => {
    const nudges = [{ bias: 10, favours: (t: string) => t.startsWith('a') }, { bias: 1, favours: (t: string) => t.endsWith('b') }];
    expect([...nudgedLogits(new Float32Array([1, 2, 3, 4]), nudges, ['ab', 'b', '', 'a'])]).toEqual([12, 3, 3, 14]);
  });
});

describe('NudgeApplier', () => {
  it('applies nudges as nudgedLogits does, and asks each nudge object about the vocabulary once', () => {
    const texts = ['ab', 'b', '', 'a'];
    let asked = 0;
    const counted: TokenNudge = { bias: 10, favours: (t) => (asked++, t.startsWith('a')) };
    const other: TokenNudge = { bias: 1, favours: (t) => t.endsWith('b') };
    const nudges = new NudgeApplier(texts);
    const logits = new Float32Array([1, 2, 3, 4]);
    const expected = [...nudgedLogits(logits, [counted, other], texts)];
    asked = 0;
    expect([...nudges.apply(logits, [counted, other])]).toEqual(expected);
    // Three texts, the empty one (a special token) never asked.
    expect(asked).toBe(3);
    // The same object at a later step: its favoured tokens are remembered; a new object is asked again.
    expect([...nudges.apply(new Float32Array(4), counted)]).toEqual([10, 0, 0, 10]);
    expect(asked).toBe(3);
    nudges.apply(new Float32Array(4), { ...counted });
    expect(asked).toBe(6);
    expect([...logits]).toEqual([1, 2, 3, 4]);
  });
});

describe('generate with a decoding guide', () => {
  it('follows a strong nudge, asks each row its own guide with the text so far at each token, and reports the nudged log-probs', async () => {
    const policy = await Policy.create(tinyModel(), { train: 'none', intraOpThreads: 1 });
    try {
      const tokenizer = tinyModel().tokenizer;
      const prompt = [5, 6, 7, 8];
      const plain = await policy.generate([prompt], { maxTokens: 6, temperature: 0, stopTokenIds: [] });
      // A token the unguided policy does not write first, with text of its own.
      const target = Array.from({ length: 300 }, (_, id) => id).find((id) => id !== plain[0]!.tokenIds[0] && tokenizer.decode([id], { skipSpecialTokens: true }).length > 0)!;
      const targetText = tokenizer.decode([target]);
      const seen: string[] = [];
      const guide: NextTokenGuide = (generatedText) => {
        seen.push(generatedText);
        return generatedText.length === 0 ? { bias: 1e4, favours: (t) => t === targetText } : undefined;
      };
      const [guided] = await policy.generate([prompt], { maxTokens: 6, temperature: 0, stopTokenIds: [], guides: [guide] });
      expect(guided!.tokenIds[0]).toBe(target);
      expect(guided!.logprobs[0]!).toBeCloseTo(0, 5);
      expect(seen.slice(0, 2)).toEqual(['', targetText]);
      expect(seen).toHaveLength(6);
      // Two rows: each asks its own guide; a row without one is not nudged.
      seen.length = 0;
      const [withGuide, without] = await policy.generate([prompt, prompt], { maxTokens: 3, temperature: 0, stopTokenIds: [], guides: [guide, undefined] });
      expect(withGuide!.tokenIds[0]).toBe(target);
      expect(without!.tokenIds).toEqual(plain[0]!.tokenIds.slice(0, 3));
      expect(seen).toHaveLength(3);
      await expect(policy.generate([prompt], { maxTokens: 2, temperature: 0, guides: [guide, guide] })).rejects.toThrow(/one \(or undefined\) per prompt/);
      // Sampled draws are scored under the nudged distribution too.
      const [sampled] = await policy.generate([prompt], { maxTokens: 1, temperature: 1, seed: 2, stopTokenIds: [], guides: [guide] });
      expect(sampled!.tokenIds[0]).toBe(target);
      expect(sampled!.logprobs[0]!).toBeCloseTo(0, 5);
      // No nudge: the guide changes nothing.
      const [idle] = await policy.generate([prompt], { maxTokens: 6, temperature: 0, stopTokenIds: [], guides: [() => undefined] });
      expect(idle!.tokenIds).toEqual(plain[0]!.tokenIds);
      await expect(policy.generate([prompt], { maxTokens: 2, guides: [guide], sampleOnDevice: true })).rejects.toThrow(/guide/);
    } finally {
      await policy.close();
    }
  });

  it('reports log q of the distribution sampled: the guide\'s bias, then the temperature, then top-p renormalisation', async () => {
    const policy = await Policy.create(tinyModel(), { train: 'none', intraOpThreads: 1 });
    try {
      const tokenizer = tinyModel().tokenizer;
      const prompt = [5, 6, 7, 8];
      const vocab = 300;
      // The model's next-token log-softmax (logits up to a constant), one scored sequence per candidate.
      const scored = await policy.logprobs(Array.from({ length: vocab }, (_, v) => [...prompt, v]));
      const logits = scored.map((row) => row[prompt.length]!);
      // The guide sees each token's text as the tokenizer lists it ('' for special tokens: never nudged).
      const texts = tokenizer.tokenTexts();
      const favoured = (t: string) => /[aeiou]/.test(t);
      const bias = 1.5, T = 0.7, topP = 0.9;
      const z = logits.map((x, v) => (x + (favoured(texts[v]!) ? bias : 0)) / T);
      const logZ = Math.log(z.reduce((a, x) => a + Math.exp(x), 0));
      const order = z.map((_, v) => v).sort((a, b) => z[b]! - z[a]! || a - b);
      const kept = new Set<number>();
      let mass = 0;
      for (const v of order) {
        kept.add(v);
        mass += Math.exp(z[v]! - logZ);
        if (mass >= topP) break;
      }
      const guide: NextTokenGuide = () => ({ bias, favours: favoured });
      for (const seed of [1, 2, 3, 4, 5]) {
        const [g] = await policy.generate([prompt], { maxTokens: 1, temperature: T, topP, seed, stopTokenIds: [], guides: [guide] });
        const token = g!.tokenIds[0]!;
        expect(kept.has(token)).toBe(true);
        expect(g!.logprobs[0]!).toBeCloseTo(z[token]! - logZ - Math.log(mass), 4);
      }
    } finally {
      await policy.close();
    }
  });
});
