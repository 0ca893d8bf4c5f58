/**
 * Continuing a generation from its kept keys and values gives what prefilling the whole
 * conversation again gives (the same greedy tokens, log-probs to float rounding), for rows of
 * different lengths, rows that stopped early, GRPO-style groups, LoRA, and chains of turns;
 * a prompt that does not continue its cache falls back to a full prefill.
 */
import { describe, expect, it } from 'vitest';
import { useTinyModel } from './tiny-model-fixture.js';
import { Rng } from '../../src/base/rng.js';
import { LoraAdapter, Policy, type Generation } from '../../src/lm/index.js';

const tinyModel = useTinyModel({ arch: 'qwen3', layers: 2, hidden: 32, heads: 4, kvHeads: 2, vocabSize: 300, seed: 5, initStd: 0.3 });

const rng = new Rng(4);
const tokens = (n: number) => Array.from({ length: n }, () => 1 + rng.int(298));

function expectClose(a: readonly number[], b: readonly number[], tolerance: number): void {
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => expect(Math.abs(x - b[i]!)).toBeLessThanOrEqual(tolerance));
}

/** The next turn's prompts: each row's prompt, its generated tokens, and a tool reply of its own length. */
function nextPrompts(prompts: readonly (readonly number[])[], gens: readonly Generation[], replyLengths: readonly number[]): number[][] {
  return prompts.map((p, b) => [...p, ...gens[b]!.tokenIds, ...tokens(replyLengths[b]!)]);
}

async function expectSameAsFullPrefill(policy: Policy, prompts: readonly (readonly number[])[], caches: readonly Generation[], options: { maxTokens: number; stopTokenIds: number[] }): Promise<Generation[]> {
  let fullTokens = 0;
  let continuedTokens = 0;
  const full = await policy.generate(prompts, { ...options, temperature: 0, onTimings: (t) => (fullTokens = t.prefillTokens) });
  const continued = await policy.generate(prompts, { ...options, temperature: 0, keepCache: true, continueFrom: caches.map((g) => g.cache), onTimings: (t) => (continuedTokens = t.prefillTokens) });
  // Only the new tokens ran: at most the longest tool reply plus the last generated token, per row.
  expect(fullTokens).toBe(prompts.length * Math.max(...prompts.map((p) => p.length)));
  expect(continuedTokens).toBe(prompts.length * Math.max(...prompts.map((p, b) => p.length - caches[b]!.cache!.tokens.length)));
  continued.forEach((g, b) => {
    expect(g.tokenIds).toEqual(full[b]!.tokenIds);
    expectClose(g.logprobs, full[b]!.logprobs, 1e-4);
  });
  return continued;
}

describe('continuing a generation from its prompt cache', () => {
  it('keeps the fed tokens (prompt and all generated tokens but the last) for every row', async () => {
    const policy = await Policy.create(tinyModel(), { train: 'none', intraOpThreads: 1 });
    try {
      const prompts = [tokens(9), tokens(4), tokens(13)];
      const gens = await policy.generate(prompts, { maxTokens: 5, temperature: 0, stopTokenIds: [], keepCache: true });
      gens.forEach((g, b) => {
        expect(g.cache).toBeDefined();
        expect(g.cache!.tokens).toEqual([...prompts[b]!, ...g.tokenIds.slice(0, -1)]);
      });
      // Without keepCache nothing is kept.
      expect((await policy.generate(prompts, { maxTokens: 2, temperature: 0 }))[0]!.cache).toBeUndefined();
    } finally {
      await policy.close();
    }
  });

  it('gives the full prefill\'s tokens and log-probs: rows of different lengths, rows that stopped early, three turns', async () => {
    const policy = await Policy.create(tinyModel(), { train: 'none', intraOpThreads: 1 });
    try {
      let prompts: number[][] = [tokens(9), tokens(4), tokens(13), tokens(6)];
      // Stop tokens chosen from what the model writes, so some rows stop early and others run to the limit.
      const probe = await policy.generate(prompts, { maxTokens: 6, temperature: 0, stopTokenIds: [] });
      const stopTokenIds = [probe[0]!.tokenIds[2]!, probe[2]!.tokenIds[4]!];
      let gens = await policy.generate(prompts, { maxTokens: 6, temperature: 0, stopTokenIds, keepCache: true });
      expect(gens.some((g) => g.finishReason === 'stop_token')).toBe(true);
      for (let turn = 0; turn < 2; turn++) {
        prompts = nextPrompts(prompts, gens, [3, 7, 1, 5]);
        gens = await expectSameAsFullPrefill(policy, prompts, gens, { maxTokens: 6, stopTokenIds });
      }
    } finally {
      await policy.close();
    }
  });

  it('continues rows that began as GRPO groups (one prefill per group) and a LoRA policy', async () => {
    const adapter = LoraAdapter.create(tinyModel().config, { rank: 2, alpha: 4, targetModules: ['q_proj', 'v_proj', 'down_proj'] }, { seed: 3, initB: 'random' });
    const policy = await Policy.create(tinyModel(), { adapter, intraOpThreads: 1 });
    try {
      const a = tokens(8);
      const b = tokens(11);
      const first = [a, a, a, b, b, b];
      const gens = await policy.generate(first, { maxTokens: 5, temperature: 1, seed: 7, stopTokenIds: [], keepCache: true });
      gens.forEach((g, r) => expect(g.cache!.tokens).toEqual([...first[r]!, ...g.tokenIds.slice(0, -1)]));
      await expectSameAsFullPrefill(policy, nextPrompts(first, gens, [2, 4, 6, 1, 3, 5]), gens, { maxTokens: 5, stopTokenIds: [] });
    } finally {
      await policy.close();
    }
  });

  it('falls back to a full prefill when a prompt does not continue its cache', async () => {
    const policy = await Policy.create(tinyModel(), { train: 'none', intraOpThreads: 1 });
    try {
      const prompts = [tokens(6), tokens(9)];
      const gens = await policy.generate(prompts, { maxTokens: 4, temperature: 0, stopTokenIds: [], keepCache: true });
      const other = [tokens(10), [...prompts[1]!, ...gens[1]!.tokenIds, 5]];
      const full = await policy.generate(other, { maxTokens: 4, temperature: 0, stopTokenIds: [] });
      let prefillTokens = 0;
      const withCaches = await policy.generate(other, { maxTokens: 4, temperature: 0, stopTokenIds: [], continueFrom: gens.map((g) => g.cache), onTimings: (t) => (prefillTokens = t.prefillTokens) });
      expect(prefillTokens).toBe(2 * Math.max(...other.map((p) => p.length)));
      expect(withCaches.map((g) => g.logprobs)).toEqual(full.map((g) => g.logprobs));
      // A prompt equal to its cache's tokens has nothing new to run: a full prefill too.
      expect(gens[0]!.cache!.continues(gens[0]!.cache!.tokens, {})).toBe(false);
    } finally {
      await policy.close();
    }
  });
});
