import { describe, expect, it } from 'vitest';
import { mcnemarExactP, pairedChange } from '../../src/train/eval/paired-change.js';

/** The two-sided exact binomial p-value by direct summation of C(n, i) as BigInts (the reference). */
function referenceP(gained: number, lost: number): number {
  const n = gained + lost;
  let c = 1n;
  let tail = 0n;
  for (let i = 0; i <= Math.min(gained, lost); i++) {
    if (i > 0) c = (c * BigInt(n - i + 1)) / BigInt(i);
    tail += c;
  }
  return Math.min(1, (2 * Number((tail * 10n ** 18n) / 2n ** BigInt(n))) / 1e18);
}

describe('mcnemarExactP', () => {
  it('matches the exact binomial tail, both directions alike', () => {
    expect(mcnemarExactP(3, 1)).toBeCloseTo(0.625, 12);
    expect(mcnemarExactP(12, 1)).toBeCloseTo(28 / 8192, 12);
    expect(mcnemarExactP(12, 0)).toBeCloseTo(2 / 4096, 12);
    for (const [g, l] of [[10, 3], [40, 25], [7, 7], [0, 9], [60, 59]] as const) {
      expect(mcnemarExactP(g, l)).toBeCloseTo(referenceP(g, l), 12);
      expect(mcnemarExactP(l, g)).toBe(mcnemarExactP(g, l));
    }
  });
  it('is 1 with no changed question or an even split, and stays finite for thousands of pairs', () => {
    expect(mcnemarExactP(0, 0)).toBe(1);
    expect(mcnemarExactP(5, 5)).toBe(1);
    expect(mcnemarExactP(600, 500)).toBeCloseTo(referenceP(600, 500), 10);
    const p = mcnemarExactP(3000, 2000);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-40);
    expect(mcnemarExactP(2600, 2500)).toBeCloseTo(referenceP(2600, 2500), 10);
  });
  it('refuses counts that are not non-negative integers', () => {
    expect(() => mcnemarExactP(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExactP(1.5, 2)).toThrow(RangeError);
  });
});

describe('pairedChange', () => {
  it('counts only the questions whose result changed', () => {
    expect(pairedChange([true, true, false, false], [true, false, true, true])).toEqual({ gained: 2, lost: 1, pValue: 1 });
  });
  it('refuses evaluations of different question counts', () => {
    expect(() => pairedChange([true], [true, false])).toThrow(/same questions/);
  });
});
