/**
 * SFT batches: every trajectory once per epoch in a seeded order; grouped by length, the rows of a
 * batch have similar lengths, so the padding share a step computes falls.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import { LENGTH_GROUP_BATCHES, paddingShare, sftBatches } from '../../src/train/sft/sft-epoch.js';

// 600 trajectories with a shared 4-token prompt and 1–300 further tokens, all trained.
const rng = new Rng(7);
const sequences = Array.from({ length: 600 }, (_, id) => {
  const rest = 1 + Math.floor(rng.float() * 300);
  return { id, tokens: [1, 2, 3, 4, ...Array.from({ length: rest }, (_, i) => 10 + i)], mask: [0, 0, 0, 0, ...Array.from({ length: rest }, () => 1)] };
});

const ids = (batches: { id: number }[][]) => batches.flat().map((s) => s.id);

describe('sftBatches', () => {
  it.each([false, true])('puts every trajectory in exactly one batch of at most batchSize (groupByLength %s)', (groupByLength) => {
    const batches = sftBatches(sequences, 8, new Rng(1), { groupByLength });
    expect(batches.length).toBe(Math.ceil(600 / 8));
    expect(batches.every((b) => b.length >= 1 && b.length <= 8)).toBe(true);
    expect(ids(batches).sort((a, b) => a - b)).toEqual(sequences.map((s) => s.id));
  });

  it('is the same for the same seed and differs between seeds', () => {
    for (const groupByLength of [false, true]) {
      expect(ids(sftBatches(sequences, 8, new Rng(3), { groupByLength }))).toEqual(ids(sftBatches(sequences, 8, new Rng(3), { groupByLength })));
      expect(ids(sftBatches(sequences, 8, new Rng(3), { groupByLength }))).not.toEqual(ids(sftBatches(sequences, 8, new Rng(4), { groupByLength })));
    }
  });

  it('grouped by length, cuts the padding share by a large factor', () => {
    const random = paddingShare(sftBatches(sequences, 8, new Rng(1)));
    const grouped = paddingShare(sftBatches(sequences, 8, new Rng(1), { groupByLength: true }));
    expect(random).toBeGreaterThan(0.2);
    expect(grouped).toBeLessThan(random / 5);
  });

  it('grouped by length, still shuffles the order of the batches (long and short ones mixed)', () => {
    const batches = sftBatches(sequences, 8, new Rng(1), { groupByLength: true });
    const longest = batches.map((b) => Math.max(...b.map((s) => s.tokens.length)));
    // Sorted within each window of LENGTH_GROUP_BATCHES batches: without the final shuffle the
    // first window would run from its longest batch down to its shortest.
    const firstWindow = longest.slice(0, LENGTH_GROUP_BATCHES);
    expect(firstWindow).not.toEqual([...firstWindow].sort((a, b) => b - a));
  });
});

describe('paddingShare', () => {
  it('counts the continuation positions (from the shared prompt\'s last token) that a row pads to the longest row', () => {
    const batch = [
      { tokens: [1, 2, 3, 4], mask: [0, 0, 1, 1] },
      { tokens: [1, 2, 5], mask: [0, 0, 1] },
    ];
    expect(paddingShare([batch])).toBeCloseTo(1 / 6);
    // A row alone shares no prompt: all 4 of its positions are computed, none padded.
    expect(paddingShare([batch, [batch[0]!]])).toBeCloseTo(1 / 10);
  });

  it('counts each length pass padded to its own longest row, as the policy runs it', () => {
    const row = (n: number) => ({ tokens: [7, 8, 9, ...Array.from({ length: n }, (_, i) => 10 + i)], mask: [0, 0, 0, ...Array.from({ length: n }, () => 1)] });
    // Continuations of 2, 2, 3, 3 tokens (a pass of 12 positions, 2 padded) and of 20, 20, 21, 21 (84, 2 padded).
    const batch = [2, 20, 2, 21, 3, 20, 3, 21].map((n) => row(n - 1));
    // One pass would compute 8 × 21 = 168 positions, 76 of them padding.
    expect(paddingShare([batch])).toBeCloseTo(4 / 96);
  });

  it('is 0 for equal lengths and for no batches', () => {
    expect(paddingShare([[{ tokens: [1, 2, 3], mask: [0, 1, 1] }, { tokens: [1, 4, 5], mask: [0, 1, 1] }]])).toBe(0);
    expect(paddingShare([])).toBe(0);
  });
});
