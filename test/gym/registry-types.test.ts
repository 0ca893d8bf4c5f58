/**
 * `make` infers an env's types from its id: the bundled ids and ids a user declares in
 * RegisteredEnvs by declaration merging. The type assertions are checked by `npm run typecheck`
 * (and the @ts-expect-error lines fail it when a wrong call compiles); the run checks the env.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Discrete, Env, Text, make, register, registry, type EnvTypes, type ResetResult, type SqlAction, type SqlObservation, type StepResult } from 'sqlenv';

interface CoinOptions {
  bias?: number;
}

class Coin extends Env<string, number> {
  readonly actionSpace = new Discrete(2);
  readonly observationSpace = new Text({ maxLength: 16, charset: 'any' });
  constructor(private readonly options: CoinOptions = {}) {
    super();
  }
  override async reset(options = {}): Promise<ResetResult<string>> {
    await super.reset(options);
    return ['call it', {}];
  }
  async step(call: number): Promise<StepResult<string>> {
    const heads = this.npRandom.float() < (this.options.bias ?? 0.5) ? 1 : 0;
    return [heads ? 'heads' : 'tails', call === heads ? 1 : 0, true, false, {}];
  }
}

declare module 'sqlenv' {
  interface RegisteredEnvs {
    'Coin-v0': EnvTypes<string, number, CoinOptions>;
  }
}

describe('make infers types from the id', () => {
  it('types the bundled ids without type arguments', () => {
    expectTypeOf(make('GuessNumber-v0', { maxNumber: 5 })).toEqualTypeOf<Env<string, number>>();
    const makeSql = () => make('SQLEnv-v0', { stepBudget: 3 }); // typed, never run here
    expectTypeOf<Awaited<ReturnType<ReturnType<typeof makeSql>['reset']>>[0]>().toEqualTypeOf<SqlObservation>();
    expectTypeOf<Parameters<ReturnType<typeof makeSql>['step']>[0]>().toEqualTypeOf<SqlAction>();
    // @ts-expect-error a misspelt kwarg of a registered id does not compile
    const misspelt = () => make('GuessNumber-v0', { maxNumbr: 5 });
    expect(misspelt).toBeTypeOf('function');
    // Explicit type arguments still work, for ids registered without types.
    expectTypeOf(make<string, number>('GuessNumber-v0')).toEqualTypeOf<Env<string, number>>();
  });

  it("types a user's id declared by declaration merging", async () => {
    register<CoinOptions>('Coin-v0', { entryPoint: (kwargs) => new Coin(kwargs), maxEpisodeSteps: 1 });
    try {
      const env = make('Coin-v0', { bias: 1 });
      expectTypeOf(env).toEqualTypeOf<Env<string, number>>();
      await env.reset({ seed: 0 });
      const [obs, reward] = await env.step(1);
      expect([obs, reward]).toEqual(['heads', 1]);
      // @ts-expect-error the action type comes from the declaration
      const wrongAction = () => env.step('heads');
      expect(wrongAction).toBeTypeOf('function');
    } finally {
      registry.unregister('Coin-v0');
    }
  });
});
