import { describe, expect, it } from 'vitest';
import {
  Discrete,
  EnvCheckError,
  Space,
  checkEnv,
  make,
  type Env,
  type JSONSchema,
  type ResetOptions,
  type ResetResult,
  type StepResult,
} from '../../src/gym/index.js';
import { GuessNumber } from '../../envs/guess/index.js';
import { CountingEnv } from './helpers/envs.js';

/** Run checkEnv and return the EnvCheckError it throws (failing the test if it passes). */
async function failure(env: unknown): Promise<EnvCheckError> {
  try {
    await checkEnv(env as Env<unknown, unknown>);
  } catch (error) {
    if (error instanceof EnvCheckError) return error;
    throw error;
  }
  throw new Error('checkEnv passed a broken env');
}

/** A space that does not contain its own samples. */
class SelfDenyingSpace extends Space<number, never> {
  sample() {
    return 1;
  }
  contains(x: unknown): x is number {
    return x === 2;
  }
  equals(other: Space<unknown, unknown>) {
    return other instanceof SelfDenyingSpace;
  }
  toJSONSchema(): JSONSchema {
    return { 'x-space': 'SelfDenying' };
  }
}

describe('checkEnv', () => {
  it('passes the toy env, running every check in Gymnasium order', async () => {
    const report = await checkEnv(new GuessNumber({ renderMode: 'ansi' }));
    expect(report.warnings).toEqual([]);
    expect(report.checks).toEqual([
      'is-env',
      'action-space',
      'observation-space',
      'reset-returns-tuple',
      'reset-accepts-seed-and-options',
      'reset-seed-determinism',
      'step-returns-tuple',
      'step-determinism',
      'render',
      'close-twice',
    ]);
  });

  it('is-env: refuses objects that are not Envs', async () => {
    const error = await failure({ reset() {}, step() {} });
    expect(error.check).toBe('is-env');
    expect(error.message).toMatch(/extends Env/);
  });

  it('wrapped: warns when given a wrapped env', async () => {
    const { warnings } = await checkEnv(make('GuessNumber-v0'));
    expect(warnings.map((w) => w.check)).toEqual(['wrapped']);
  });

  it('action-space: needs a Space that contains its samples', async () => {
    const notASpace = new CountingEnv();
    (notASpace as { actionSpace: unknown }).actionSpace = [0, 1];
    expect((await failure(notASpace)).check).toBe('action-space');
    const selfDenying = new CountingEnv();
    (selfDenying as { actionSpace: unknown }).actionSpace = new SelfDenyingSpace();
    const error = await failure(selfDenying);
    expect(error.check).toBe('action-space');
    expect(error.message).toMatch(/does not contain its own sample/);
  });

  it('observation-space: needs a Space; a schema that does not round-trip is a warning', async () => {
    const env = new CountingEnv();
    (env as { observationSpace: unknown }).observationSpace = undefined;
    expect((await failure(env)).check).toBe('observation-space');
    class CustomSpace extends Discrete {
      override toJSONSchema(): JSONSchema {
        return { 'x-space': 'Custom' };
      }
    }
    const custom = new CountingEnv();
    (custom as { observationSpace: unknown }).observationSpace = new CustomSpace(1000);
    const { warnings } = await checkEnv(custom);
    expect(warnings.map((w) => w.check)).toEqual(['observation-space']);
  });

  it('reset-returns-tuple: reset must resolve to [obs, info]', async () => {
    class ObsOnly extends CountingEnv {
      override async reset(options: ResetOptions = {}) {
        const [obs] = await super.reset(options);
        return obs as unknown as ResetResult<number>;
      }
    }
    const error = await failure(new ObsOnly());
    expect(error.check).toBe('reset-returns-tuple');
    expect(error.message).toMatch(/Fix: return `\[observation, info\]`/);
  });

  it('reset-info-is-object: info must be a plain object', async () => {
    class NullInfo extends CountingEnv {
      override async reset(options: ResetOptions = {}): Promise<ResetResult<number>> {
        await super.reset(options);
        return [0, null as never];
      }
    }
    expect((await failure(new NullInfo())).check).toBe('reset-info-is-object');
  });

  it('reset-obs-in-space: an observation outside the space is a warning', async () => {
    class OutOfSpace extends CountingEnv {
      override async reset(options: ResetOptions = {}): Promise<ResetResult<number>> {
        const [, info] = await super.reset(options);
        return [-5, info];
      }
    }
    const { warnings } = await checkEnv(new OutOfSpace());
    expect(warnings.map((w) => w.check)).toEqual(['reset-obs-in-space']);
  });

  it('reset-accepts-seed-and-options: reset({ seed, options }) must work', async () => {
    class NoOptions extends CountingEnv {
      override async reset(options: ResetOptions = {}) {
        if (options.options) throw new TypeError('options not supported');
        return super.reset(options);
      }
    }
    const error = await failure(new NoOptions());
    expect(error.check).toBe('reset-accepts-seed-and-options');
    expect(error.message).toMatch(/TypeError: options not supported/);
  });

  it('reset-seed-determinism: the same seed must give the same observation', async () => {
    class MathRandom extends CountingEnv {
      override async reset(options: ResetOptions = {}): Promise<ResetResult<number>> {
        const [, info] = await super.reset(options);
        return [Math.floor(Math.random() * 1000), info];
      }
    }
    const error = await failure(new MathRandom());
    expect(error.check).toBe('reset-seed-determinism');
    expect(error.message).toMatch(/different observations/);
  });

  it('reset-seed-determinism: reset must pass the seed to super.reset', async () => {
    class IgnoresSeed extends CountingEnv {
      override async reset(): Promise<ResetResult<number>> {
        return super.reset({});
      }
    }
    const error = await failure(new IgnoresSeed());
    expect(error.check).toBe('reset-seed-determinism');
    expect(error.message).toMatch(/super\.reset\(options\)/);
  });

  it('step-returns-tuple: step must resolve to a 5-element array', async () => {
    class OldApi extends CountingEnv {
      override async step(): Promise<StepResult<number>> {
        return [1, 0, false, {}] as unknown as StepResult<number>;
      }
    }
    const error = await failure(new OldApi());
    expect(error.check).toBe('step-returns-tuple');
    expect(error.message).toMatch(/terminated and truncated/);
  });

  it('step-flags-are-boolean: terminated and truncated must be booleans', async () => {
    class NumericFlags extends CountingEnv {
      override async step(): Promise<StepResult<number>> {
        return [1, 0, 0 as unknown as boolean, false, {}];
      }
    }
    expect((await failure(new NumericFlags())).check).toBe('step-flags-are-boolean');
  });

  it('step-reward-is-number: the reward must be a number; a non-finite one is a warning', async () => {
    class StringReward extends CountingEnv {
      override async step(): Promise<StepResult<number>> {
        return [1, '1' as unknown as number, false, false, {}];
      }
    }
    expect((await failure(new StringReward())).check).toBe('step-reward-is-number');
    class NaNReward extends CountingEnv {
      override async step(): Promise<StepResult<number>> {
        return [1, NaN, false, false, {}];
      }
    }
    const { warnings } = await checkEnv(new NaNReward());
    expect(warnings.map((w) => w.check)).toEqual(['step-reward-is-finite']);
  });

  it('step-info-is-object: info must be a plain object', async () => {
    class ArrayInfo extends CountingEnv {
      override async step(): Promise<StepResult<number>> {
        return [1, 0, false, false, [] as never];
      }
    }
    expect((await failure(new ArrayInfo())).check).toBe('step-info-is-object');
  });

  it('step-obs-in-space: an observation outside the space is a warning', async () => {
    class OutOfSpace extends CountingEnv {
      override async step(): Promise<StepResult<number>> {
        return [5000, 0, false, false, {}];
      }
    }
    const { warnings } = await checkEnv(new OutOfSpace());
    expect(warnings.map((w) => w.check)).toEqual(['step-obs-in-space']);
  });

  it('step-determinism: the same seed and action must give the same step, unless nondeterministic', async () => {
    class NoisyStep extends CountingEnv {
      override async step(action: number): Promise<StepResult<number>> {
        const [obs, , terminated, truncated, info] = await super.step(action);
        return [obs, Math.random(), terminated, truncated, info];
      }
    }
    const error = await failure(new NoisyStep());
    expect(error.check).toBe('step-determinism');
    expect(error.message).toMatch(/different rewards.*nondeterministic: true/);
    const declared = new NoisyStep();
    declared.spec = { nondeterministic: true } as never;
    const { warnings } = await checkEnv(declared);
    expect(warnings).toEqual([{ check: 'step-determinism', message: expect.stringMatching(/skipped/) as unknown as string }]);
  });

  it('step-determinism: differing infos are only a warning', async () => {
    class TimedInfo extends CountingEnv {
      override async step(action: number): Promise<StepResult<number>> {
        const [obs, reward, terminated, truncated] = await super.step(action);
        return [obs, reward, terminated, truncated, { elapsedMs: Math.random() }];
      }
    }
    const { warnings } = await checkEnv(new TimedInfo());
    expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(/different infos \(keys: elapsedMs\)/)]);
  });

  it('render: metadata.renderModes must be an array of strings', async () => {
    const env = new CountingEnv();
    env.metadata = { renderModes: 'ansi' as never };
    expect((await failure(env)).check).toBe('render');
    expect(await checkEnv(env, { skipRenderCheck: true })).toBeDefined();
  });

  it('render: renderMode must be declared, and render() must work and return text in ansi mode', async () => {
    const undeclared = new CountingEnv();
    undeclared.renderMode = 'rgb_array';
    expect((await failure(undeclared)).message).toMatch(/renderMode 'rgb_array' is not in metadata.renderModes/);
    class ThrowingRender extends CountingEnv {
      override render(): string {
        throw new Error('no display');
      }
    }
    const throwing = new ThrowingRender();
    throwing.renderMode = 'ansi';
    expect((await failure(throwing)).message).toMatch(/render\(\) threw in mode 'ansi': no display/);
    class NumberRender extends CountingEnv {
      override render(): string {
        return 42 as unknown as string;
      }
    }
    const numeric = new NumberRender();
    numeric.renderMode = 'ansi';
    expect((await failure(numeric)).message).toMatch(/returned 42/);
    const badFps = new CountingEnv();
    badFps.metadata = { renderModes: [], renderFps: -1 };
    expect((await checkEnv(badFps)).warnings.map((w) => w.check)).toEqual(['render']);
  });

  it('close-twice: close() must be idempotent', async () => {
    class CloseOnce extends CountingEnv {
      override async close(): Promise<void> {
        await super.close();
        if (this.closeCalls > 1) throw new Error('already closed');
      }
    }
    const error = await failure(new CloseOnce());
    expect(error.check).toBe('close-twice');
    expect(error.message).toMatch(/the second close\(\) threw Error: already closed/);
  });
});
