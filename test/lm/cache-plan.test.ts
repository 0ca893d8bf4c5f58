import { describe, expect, it } from 'vitest';
import { decodePrefix, planCache, prefixSource } from '../../src/lm/compute/cache-plan.js';
import type { PromptCache } from '../../src/lm/compute/prompt-cache.js';

const owner = {};
const cpuHost = { kvCache: true, onDevice: false, cpu: true, owner };
/** A stand-in cache that continues exactly the prompts it is told to, from `owner` only. */
const cacheFor = (prompt: readonly number[]): PromptCache => ({ continues: (p: readonly number[], o: object) => o === owner && p.join() === prompt.join() }) as unknown as PromptCache;

describe('planCache', () => {
  it('reruns whole sequences without a KV cache, and grows one cache with device sampling or off the CPU', () => {
    expect(planCache([[1, 2]], { ...cpuHost, kvCache: false })).toEqual({ use: 'rerun' });
    expect(planCache([[1, 2]], { ...cpuHost, onDevice: true })).toEqual({ use: 'whole' });
    expect(planCache([[1, 2]], { ...cpuHost, cpu: false })).toEqual({ use: 'whole' });
    // One-token prompts leave no prompt cache to split off.
    expect(planCache([[1], [2]], cpuHost)).toEqual({ use: 'whole' });
    expect(decodePrefix({ use: 'whole' })).toBe('none');
  });

  it('shares a prompt among the rows that repeat it, one prefix per group when the groups are runs of one size', () => {
    const grouped = planCache([[1, 2], [1, 2], [3, 4], [3, 4]], cpuHost);
    expect(grouped).toEqual({ use: 'prefix', shared: { prompts: [[1, 2], [3, 4]], rowOf: [0, 0, 1, 1] }, grouped: true });
    expect(decodePrefix(grouped)).toBe('per-group');
    const scattered = planCache([[1, 2], [3, 4], [1, 2]], cpuHost);
    expect(scattered).toEqual({ use: 'prefix', shared: { prompts: [[1, 2], [3, 4]], rowOf: [0, 1, 0] }, grouped: false });
    expect(decodePrefix(scattered)).toBe('per-row');
    if (scattered.use !== 'prefix' || grouped.use !== 'prefix') throw new Error('unreachable');
    expect(prefixSource(scattered, 3)).toEqual({ kind: 'per-row', rowOf: [0, 1, 0] });
    expect(prefixSource(grouped, 4)).toEqual({ kind: 'grouped', rowOf: [0, 0, 1, 1], groups: 2 });
    expect(planCache([[1, 2], [3, 4]], cpuHost)).toEqual({ use: 'prefix', grouped: false });
  });

  it('continues earlier caches only when every row continues its own', () => {
    const prompts = [[1, 2, 3], [1, 2, 3]];
    const caches = prompts.map(cacheFor);
    expect(planCache(prompts, { ...cpuHost, continueFrom: caches })).toEqual({ use: 'prefix', continued: caches, grouped: false });
    // One row without a cache: the call prefills (and shares the repeated prompt) as usual.
    expect(planCache(prompts, { ...cpuHost, continueFrom: [caches[0], undefined] })).toMatchObject({ use: 'prefix', grouped: true });
    // A cache from another engine is not continued.
    expect(planCache(prompts, { ...cpuHost, owner: {}, continueFrom: caches })).toMatchObject({ use: 'prefix', grouped: true });
  });
});
