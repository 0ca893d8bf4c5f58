import { describe, expect, it } from 'vitest';
import {
  ActionWrapper,
  Autoreset,
  ClipReward,
  Discrete,
  EnvCheckError,
  ObservationWrapper,
  OrderEnforcing,
  PassiveEnvChecker,
  RecordEpisodeStatistics,
  ResetNeeded,
  RewardWrapper,
  Text,
  TimeLimit,
  TransformObservation,
  TransformReward,
  Wrapper,
  type CheckWarning,
  type EpisodeStatistics,
  type StepResult,
} from '../../src/gym/index.js';
import { CountingEnv } from './helpers/envs.js';

describe('Wrapper', () => {
  it('forwards spaces, metadata, spec, renderMode, npRandom, render, close and unwrapped', async () => {
    const inner = new CountingEnv();
    inner.renderMode = 'ansi';
    const outer = new Wrapper(new Wrapper(inner));
    expect(outer.actionSpace).toBe(inner.actionSpace);
    expect(outer.observationSpace).toBe(inner.observationSpace);
    expect(outer.metadata).toBe(inner.metadata);
    expect(outer.renderMode).toBe('ansi');
    expect(outer.unwrapped).toBe(inner);
    await outer.reset({ seed: 3 });
    expect(outer.npRandom).toBe(inner.npRandom);
    expect(outer.render()).toBe('count=0');
    inner.spec = { id: 'Late-v0' } as never;
    expect(outer.spec).toBe(inner.spec);
    await outer.close();
    expect(inner.closeCalls).toBe(1);
    expect(String(outer)).toBe('<Wrapper<Wrapper<CountingEnv<Late-v0>>>>');
  });

  it('lets a wrapper override a space or metadata for itself and the wrappers around it only', () => {
    const inner = new CountingEnv();
    const middle = new Wrapper(inner);
    const outer = new Wrapper(middle);
    middle.actionSpace = new Discrete(2);
    middle.metadata = { renderModes: [] };
    expect(outer.actionSpace.equals(new Discrete(2))).toBe(true);
    expect(inner.actionSpace.equals(new Discrete(5))).toBe(true);
    expect(outer.metadata.renderModes).toEqual([]);
    expect(inner.metadata.renderModes).toEqual(['ansi']);
  });

  it('ObservationWrapper, RewardWrapper and ActionWrapper map their part', async () => {
    class Doubled extends ObservationWrapper<number, number, number> {
      observation(obs: number) {
        return obs * 2;
      }
    }
    class Negated extends RewardWrapper<number, number> {
      reward(r: number) {
        return -r;
      }
    }
    class OneBased extends ActionWrapper<number, number, number> {
      action(a: number) {
        return a - 1;
      }
    }
    const env = new OneBased(new Negated(new Doubled(new CountingEnv())));
    expect((await env.reset())[0]).toBe(0);
    const [obs, reward] = await env.step(4);
    expect(obs).toBe(2);
    expect(reward).toBe(-3);
  });
});

describe('TimeLimit', () => {
  it('truncates once elapsed steps reach the limit and restarts the count on reset', async () => {
    const env = new TimeLimit(new CountingEnv(100), 2);
    await env.reset();
    expect((await env.step(0))[3]).toBe(false);
    expect((await env.step(0))[3]).toBe(true);
    expect(env.elapsedSteps).toBe(2);
    await env.reset();
    expect(env.elapsedSteps).toBe(0);
    expect((await env.step(0))[3]).toBe(false);
    expect(() => new TimeLimit(new CountingEnv(), 0)).toThrow(RangeError);
  });

  it('keeps terminated when the limit step also terminates', async () => {
    const env = new TimeLimit(new CountingEnv(1), 1);
    await env.reset();
    const [, , terminated, truncated] = await env.step(0);
    expect([terminated, truncated]).toEqual([true, true]);
  });
});

describe('OrderEnforcing', () => {
  it('throws ResetNeeded on step or render before reset, and on step after close', async () => {
    const env = new OrderEnforcing(new CountingEnv());
    await expect(env.step(0)).rejects.toThrow(ResetNeeded);
    await expect(env.step(0)).rejects.toThrow(/before reset\(\)/);
    expect(() => env.render()).toThrow(ResetNeeded);
    expect(new OrderEnforcing(new CountingEnv(), { disableRenderOrderEnforcing: true }).render()).toBe('count=0');
    await env.reset();
    expect(env.hasReset).toBe(true);
    await env.step(1);
    await env.close();
    await expect(env.step(0)).rejects.toThrow(/after close\(\)/);
    await env.reset();
    await expect(env.step(0)).resolves.toBeDefined();
  });
});

describe('PassiveEnvChecker', () => {
  class BadObsEnv extends CountingEnv {
    override async step(action: number): Promise<StepResult<number>> {
      const [, reward, terminated, truncated, info] = await super.step(action);
      return [-1, reward, terminated, truncated, info];
    }
  }

  it('checks only the first reset and step, warning about an observation outside the space', async () => {
    const warnings: CheckWarning[] = [];
    const env = new PassiveEnvChecker(new BadObsEnv(10), { onWarning: (w) => warnings.push(w) });
    await env.reset();
    await env.step(0);
    await env.step(0);
    expect(warnings.map((w) => w.check)).toEqual(['step-obs-in-space']);
    expect(env.warnings).toEqual(warnings);
  });

  it('throws EnvCheckError on a broken step result', async () => {
    class FourTuple extends CountingEnv {
      override async step(): Promise<StepResult<number>> {
        return [0, 0, false, {}] as unknown as StepResult<number>;
      }
    }
    const env = new PassiveEnvChecker(new FourTuple());
    await env.reset();
    await expect(env.step(0)).rejects.toThrow(EnvCheckError);
  });

  it('refuses an env whose spaces are not Spaces', () => {
    const env = new CountingEnv();
    (env as { actionSpace: unknown }).actionSpace = { n: 3 };
    expect(() => new PassiveEnvChecker(env)).toThrow(/action-space/);
  });
});

describe('RecordEpisodeStatistics', () => {
  it('adds { r, l, t } at the end of each episode and keeps recent episodes', async () => {
    const env = new RecordEpisodeStatistics(new CountingEnv(3), { bufferLength: 2 });
    for (let episode = 0; episode < 3; episode++) {
      await env.reset();
      const infos = [];
      for (let i = 0; i < 3; i++) infos.push((await env.step(episode + 1))[4]);
      expect(infos[0]!.episode).toBeUndefined();
      const stats = infos[2]!.episode as EpisodeStatistics;
      expect(stats.r).toBe(3 * (episode + 1));
      expect(stats.l).toBe(3);
      expect(stats.t).toBeGreaterThanOrEqual(0);
    }
    expect(env.returnQueue).toEqual([6, 9]);
    expect(env.lengthQueue).toEqual([3, 3]);
  });
});

describe('reward and observation transforms', () => {
  it('TransformReward and ClipReward', async () => {
    const scaled = new TransformReward(new CountingEnv(), (r) => r * 10);
    await scaled.reset();
    expect((await scaled.step(3))[1]).toBe(30);
    const clipped = new ClipReward(new CountingEnv(), 0, 2);
    await clipped.reset();
    expect((await clipped.step(4))[1]).toBe(2);
    expect(() => new ClipReward(new CountingEnv(), 1, 0)).toThrow(RangeError);
  });

  it('TransformObservation maps observations and may change the space', async () => {
    const space = new Text({ maxLength: 10, charset: '0123456789' });
    const env = new TransformObservation(new CountingEnv(), (n: number) => String(n), space);
    expect(env.observationSpace).toBe(space);
    expect((await env.reset())[0]).toBe('0');
    expect((await env.step(0))[0]).toBe('1');
  });
});

describe('Autoreset', () => {
  it('resets on the step after an episode ends, returning reward 0 and false flags', async () => {
    const inner = new CountingEnv(2);
    const env = new Autoreset(inner);
    await env.reset({ seed: 1 });
    expect((await env.step(1)).slice(0, 4)).toEqual([1, 1, false, false]);
    expect((await env.step(1)).slice(0, 4)).toEqual([2, 1, true, false]);
    const [obs, reward, terminated, truncated, info] = await env.step(4);
    expect([obs, reward, terminated, truncated]).toEqual([0, 0, false, false]);
    expect(info).toHaveProperty('offset');
    expect((await env.step(1)).slice(0, 4)).toEqual([1, 1, false, false]);
  });
});
