import { describe, expect, it } from 'vitest';
import { Histogram } from '../../../src/remote/server/histogram.js';

describe('Histogram', () => {
  it('counts values into cumulative buckets with +Inf last', () => {
    const h = new Histogram([1, 5, 10]);
    for (const v of [0.5, 1, 3, 7, 12, 100]) h.observe(v);
    expect(h.cumulativeCounts()).toEqual([2, 3, 4, 6]);
    expect(h.count).toBe(6);
    expect(h.sum).toBeCloseTo(123.5);
  });

  it('rejects bounds that are not strictly increasing', () => {
    expect(() => new Histogram([1, 1])).toThrow(RangeError);
  });
});
