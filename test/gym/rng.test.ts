import { describe, expect, it } from 'vitest';
import { Rng, deriveSeed, streamSeed } from '../../src/base/rng.js';

describe('Rng', () => {
  it('gives the same stream for the same seed and different streams for nearby seeds', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const c = new Rng(43);
    const sa = Array.from({ length: 8 }, () => a.nextUint32());
    expect(Array.from({ length: 8 }, () => b.nextUint32())).toEqual(sa);
    expect(Array.from({ length: 8 }, () => c.nextUint32())).not.toEqual(sa);
  });

  it('restores its state exactly', () => {
    const a = new Rng(7);
    a.float();
    const state = a.getState();
    const next = a.float();
    a.setState(state);
    expect(a.float()).toBe(next);
  });

  it('draws unbiased integers in range and floats in [0, 1)', () => {
    const rng = new Rng(1);
    const counts = new Array(6).fill(0) as number[];
    for (let i = 0; i < 60_000; i++) counts[rng.int(6)]!++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
    for (let i = 0; i < 1000; i++) {
      const f = rng.float();
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(1);
    }
  });

  it('rejects invalid seeds with a clear error', () => {
    expect(() => new Rng(-1)).toThrow(/non-negative safe integer/);
    expect(() => new Rng(1.5)).toThrow(/non-negative safe integer/);
  });

  it('derives sub-environment seeds as seed + index (Gymnasium)', () => {
    expect(deriveSeed(42, 3)).toBe(45);
  });

  it('names independent streams of one seed: stable, distinct per name and per seed, safe integers', () => {
    expect(streamSeed(0, 'evaluation/sft/0/eval')).toBe(streamSeed(0, 'evaluation/sft/0/eval'));
    const seeds = [0, 1, 2, 2 ** 40, Number.MAX_SAFE_INTEGER].flatMap((s) => ['a', 'b', 'evaluation/final/30/eval'].map((n) => streamSeed(s, n)));
    expect(new Set(seeds).size).toBe(seeds.length);
    for (const s of seeds) expect(Number.isSafeInteger(s) && s >= 0).toBe(true);
    // Usable as an Rng seed, and the streams differ.
    expect(new Rng(streamSeed(0, 'a')).nextUint32()).not.toBe(new Rng(streamSeed(0, 'b')).nextUint32());
  });
});
