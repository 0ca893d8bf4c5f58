import { describe, expect, it } from 'vitest';
import { workerOfSession, workerSessionPrefix } from '../../../src/remote/cluster/worker-session-ids.js';

describe('worker session ids', () => {
  it('round-trips the worker index through the prefix', () => {
    for (const index of [0, 1, 7, 123]) expect(workerOfSession(`${workerSessionPrefix(index)}4f1c2d3e-0000-4000-8000-000000000000`)).toBe(index);
  });

  it('leaves ids no worker made to be answered where they arrive', () => {
    expect(workerOfSession('4f1c2d3e-0000-4000-8000-000000000000')).toBeUndefined();
    expect(workerOfSession('w-1')).toBeUndefined();
    expect(workerOfSession('wx-1')).toBeUndefined();
    expect(workerOfSession('w12345678-1')).toBeUndefined();
  });

  it('refuses indexes that are not integers ≥ 0', () => {
    expect(() => workerSessionPrefix(-1)).toThrow(RangeError);
    expect(() => workerSessionPrefix(1.5)).toThrow(RangeError);
  });
});
