import { describe, expect, it } from 'vitest';
import { AutoresetMode, Discrete, SyncVectorEnv, Tuple, make, makeVec } from '../../src/gym/index.js';
import '../../envs/guess/index.js';
import { contiguousBlocks } from '../../src/gym/vector/partition.js';
import { CountingEnv } from './helpers/envs.js';

function countingVec(numEnvs: number, length: number | number[], autoresetMode?: AutoresetMode) {
  const envs: CountingEnv[] = [];
  const vec = new SyncVectorEnv<number, number>(
    Array.from({ length: numEnvs }, (_, i) => () => {
      const env = new CountingEnv(Array.isArray(length) ? length[i] : length);
      envs.push(env);
      return env;
    }),
    { autoresetMode },
  );
  return { vec, envs };
}

describe('SyncVectorEnv', () => {
  it('seeds sub-env i with seed + i', async () => {
    const { vec } = countingVec(3, 5);
    const [obs, infos] = await vec.reset({ seed: 10 });
    expect(obs).toEqual([0, 0, 0]);
    for (let i = 0; i < 3; i++) {
      const single = new CountingEnv();
      const [, info] = await single.reset({ seed: 10 + i });
      expect(infos[i]!.offset).toBe(info.offset);
    }
    const [, perEnvSeeds] = await vec.reset({ seed: [12, undefined, 10] });
    expect(perEnvSeeds[0]!.offset).toBe(infos[2]!.offset);
    expect(vec.metadata.autoresetMode).toBe(AutoresetMode.NEXT_STEP);
  });

  it('batches spaces as Tuples and results as arrays', async () => {
    const { vec } = countingVec(2, 5);
    expect(vec.actionSpace).toBeInstanceOf(Tuple);
    expect(vec.actionSpace.equals(new Tuple([new Discrete(5), new Discrete(5)]))).toBe(true);
    expect(vec.singleObservationSpace.equals(new Discrete(1000))).toBe(true);
    await vec.reset();
    const [obs, rewards, terminations, truncations, infos] = await vec.step([1, 2]);
    expect(obs).toEqual([1, 1]);
    expect(rewards).toEqual(new Float64Array([1, 2]));
    expect(terminations).toEqual([false, false]);
    expect(truncations).toEqual([false, false]);
    expect(infos).toEqual([{ count: 1 }, { count: 1 }]);
    await expect(vec.step([1])).rejects.toThrow(/one action per sub-env \(2\)/);
  });

  it('NEXT_STEP: the step after an episode ends resets that sub-env with reward 0 and false flags', async () => {
    const { vec, envs } = countingVec(2, [1, 3], AutoresetMode.NEXT_STEP);
    await vec.reset({ seed: 0 });
    let [obs, rewards, terminations] = await vec.step([2, 2]);
    expect(obs).toEqual([1, 1]);
    expect(terminations).toEqual([true, false]);
    let infos;
    [obs, rewards, terminations, , infos] = await vec.step([4, 4]);
    expect(obs).toEqual([0, 2]);
    expect([...rewards]).toEqual([0, 4]);
    expect(terminations).toEqual([false, false]);
    expect(infos[0]).toHaveProperty('offset');
    expect(envs[0]!.count).toBe(0);
    [obs, rewards, terminations] = await vec.step([3, 3]);
    expect(obs).toEqual([1, 3]);
    expect(terminations).toEqual([true, true]);
  });

  it('SAME_STEP: resets within the ending step and puts final_obs/final_info in info', async () => {
    const { vec } = countingVec(2, [1, 3], AutoresetMode.SAME_STEP);
    await vec.reset({ seed: 0 });
    const [obs, rewards, terminations, truncations, infos] = await vec.step([2, 2]);
    expect(obs).toEqual([0, 1]);
    expect([...rewards]).toEqual([2, 2]);
    expect(terminations).toEqual([true, false]);
    expect(truncations).toEqual([false, false]);
    expect(infos[0]).toMatchObject({ final_obs: 1, final_info: { count: 1 } });
    expect(infos[0]).toHaveProperty('offset');
    expect(infos[1]).toEqual({ count: 1 });
    expect((await vec.step([1, 1]))[0]).toEqual([0, 2]); // sub-env 0 ends (and resets) every step
  });

  it('DISABLED: never resets; resetMask resets only the selected sub-envs', async () => {
    const { vec, envs } = countingVec(3, 1, AutoresetMode.DISABLED);
    await vec.reset({ seed: 5 });
    await vec.step([0, 0, 0]);
    const [obs] = await vec.step([0, 0, 0]);
    expect(obs).toEqual([2, 2, 2]);
    const [afterMask, infos] = await vec.reset({ seed: 5, options: { resetMask: [false, true, false], level: 'hard' } });
    expect(afterMask).toEqual([2, 0, 2]);
    expect(infos[0]).toEqual({});
    expect(infos[1]).toMatchObject({ options: { level: 'hard' } });
    expect(envs.map((e) => e.count)).toEqual([2, 0, 2]);
    await expect(vec.reset({ options: { resetMask: [true] } })).rejects.toThrow(/resetMask has 1 entries/);
  });

  it('refuses sub-envs with different spaces and closes every sub-env once', async () => {
    expect(() => new SyncVectorEnv([() => make('GuessNumber-v0'), () => make('GuessNumber-v0', { maxNumber: 7 })])).toThrow(/different spaces/);
    const { vec, envs } = countingVec(2, 1);
    await vec.close();
    await vec.close();
    expect(envs.map((e) => e.closeCalls)).toEqual([1, 1]);
  });
});

describe('makeVec', () => {
  it('builds a SyncVectorEnv of registered envs with kwargs and autoreset mode', async () => {
    const vec = makeVec<string, number>('GuessNumber-v0', { numEnvs: 2, kwargs: { maxNumber: 7 }, autoresetMode: AutoresetMode.SAME_STEP });
    expect(vec).toBeInstanceOf(SyncVectorEnv);
    expect(vec.autoresetMode).toBe(AutoresetMode.SAME_STEP);
    expect(vec.singleActionSpace.equals(new Discrete(7, 1))).toBe(true);
    expect(() => makeVec('GuessNumber-v0', { numEnvs: 1, vectorizationMode: 'gpu' as never })).toThrow(/vectorizationMode/);
    await vec.close();
  });
});

describe('contiguousBlocks', () => {
  it('splits items into ordered blocks whose sizes differ by at most one', () => {
    expect(contiguousBlocks(5, 2)).toEqual([[0, 1], [2, 3, 4]]);
    expect(contiguousBlocks(8, 8)).toEqual([[0], [1], [2], [3], [4], [5], [6], [7]]);
    expect(contiguousBlocks(3, 1)).toEqual([[0, 1, 2]]);
    for (const [count, parts] of [[17, 5], [9, 4], [2, 2]] as const) {
      const blocks = contiguousBlocks(count, parts);
      expect(blocks.flat()).toEqual(Array.from({ length: count }, (_, i) => i));
      const sizes = blocks.map((b) => b.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
    expect(() => contiguousBlocks(3, 0)).toThrow(RangeError);
  });
});
