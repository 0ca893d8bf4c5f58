import { describe, expect, it } from 'vitest';
import { RecordEpisodeStatistics, checkEnv, make, spec, type EpisodeStatistics } from '../../src/gym/index.js';
import { GuessNumber } from '../../envs/guess/index.js';

/** Binary search: the optimal policy for the toy env. */
async function playOptimally(env: ReturnType<typeof make<string, number>>, seed: number) {
  let [obs] = await env.reset({ seed });
  let [lo, hi] = [1, 100];
  let info = {};
  for (;;) {
    const guess = Math.floor((lo + hi) / 2);
    let terminated: boolean;
    let truncated: boolean;
    [obs, , terminated, truncated, info] = await env.step(guess);
    if (terminated || truncated) return { obs, info };
    if (obs === 'Too low.') lo = guess + 1;
    else hi = guess - 1;
  }
}

describe('GuessNumber-v0', () => {
  it('is registered with a 10-step limit and passes checkEnv', async () => {
    expect(spec('GuessNumber-v0').maxEpisodeSteps).toBe(10);
    await expect(checkEnv(new GuessNumber({ renderMode: 'ansi' }))).resolves.toMatchObject({ warnings: [] });
  });

  it('answers higher/lower and ends with reward 1 on the right guess', async () => {
    const env = new GuessNumber({ maxNumber: 3, renderMode: 'ansi' });
    const [obs] = await env.reset({ seed: 4 });
    expect(obs).toBe('Guess a number from 1 to 3.');
    const results = [];
    for (const guess of [1, 2, 3]) results.push(await env.step(guess));
    const correct = results.find((r) => r[0] === 'Correct!')!;
    expect(correct.slice(1, 4)).toEqual([1, true, false]);
    for (const r of results.filter((r) => r !== correct)) expect(r.slice(1, 4)).toEqual([-0.01, false, false]);
    expect(env.render()).toBe(results[2]![0]);
  });

  it('is solved by binary search within the time limit (the docs example)', async () => {
    const env = new RecordEpisodeStatistics(make<string, number>('GuessNumber-v0'));
    for (let seed = 0; seed < 20; seed++) {
      const { obs, info } = await playOptimally(env, seed);
      expect(obs).toBe('Correct!');
      expect((info as { episode: EpisodeStatistics }).episode.l).toBeLessThanOrEqual(7);
    }
    await env.close();
  });

  it('truncates random play after 10 steps', async () => {
    const env = make<string, number>('GuessNumber-v0', { maxNumber: 1000 });
    await env.reset({ seed: 1 });
    let truncated = false;
    let steps = 0;
    while (!truncated) {
      let terminated: boolean;
      [, , terminated, truncated] = await env.step(1001 - (steps + 1)); // with seed 1 the secret is not among 991…1000
      expect(terminated).toBe(false);
      steps++;
    }
    expect(steps).toBe(10);
  });
});
